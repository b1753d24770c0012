package rf

import (
	"math"

	"ntkrf/internal/check"
)

// naiveDim returns the output dimension of the explicit construction
// (paper eq. (5)): m1·(1 + m0 + … + m0^{L−1}) + m0^L·d, or MaxDim+1 when it
// exceeds MaxDim.
func naiveDim(depth, m0, m1, d int) int {
	dim := d
	for range depth {
		dim = m1 + m0*dim
		if dim > MaxDim {
			return MaxDim + 1
		}
	}
	return dim
}

// sizeNaive sizes explicit tensor products of arc-cosine features
// (Bietti-style, no sketch). Unset M0 and M1 are chosen as the largest
// equal widths (or the largest missing one) whose output fits in Dim.
func (p *mapPlan) sizeNaive(d int) error {
	c := &p.cfg
	L := c.Depth
	if c.M0 == 0 || c.M1 == 0 {
		if err := needDim(c); err != nil {
			return err
		}
		fits := func(w int) bool {
			return naiveDim(L, orDefault(c.M0, w), orDefault(c.M1, w), d) <= c.Dim
		}
		if !fits(1) {
			return check.New(check.Option, "dim", "rf: Config.Dim %d is too small for naive at depth %d on %d columns; use at least %d",
				c.Dim, L, d, naiveDim(L, orDefault(c.M0, 1), orDefault(c.M1, 1), d))
		}
		w := 1
		for fits(w + 1) {
			w++
		}
		c.M0, c.M1 = orDefault(c.M0, w), orDefault(c.M1, w)
	}
	c.Dim = naiveDim(L, c.M0, c.M1, d)
	if c.Dim > MaxDim {
		return check.New(check.Option, "m0", "rf: naive features with Config.M0 %d and Config.M1 %d have more than %d columns; use smaller widths", c.M0, c.M1, MaxDim)
	}
	din := d
	for range L {
		p.layers = append(p.layers, layerPlan{din: din, m0: c.M0, m1: c.M1})
		din = c.M1
	}
	return nil
}

// gradDim returns the number of parameters of the "grad" network of the
// given width: w (width), W_1 (width×d) and W_2…W_L (width×width).
func gradDim(depth, width, d int) int {
	dim := float64(width) * (1 + float64(d) + float64(depth-1)*float64(width))
	return int(math.Min(dim, MaxDim+1))
}

// sizeGrad sizes gradient features of f(x) = wᵀh_L with
// h_l = √(2/width)·ReLU(W_l h_{l−1}), standard Gaussian weights, width M1
// or else the largest width whose parameter count fits in Dim.
func (p *mapPlan) sizeGrad(d int) error {
	c := &p.cfg
	L := c.Depth
	if c.M1 == 0 {
		if err := needDim(c); err != nil {
			return err
		}
		if gradDim(L, 1, d) > c.Dim {
			return check.New(check.Option, "dim", "rf: Config.Dim %d is too small for grad at depth %d on %d columns; use at least %d",
				c.Dim, L, d, gradDim(L, 1, d))
		}
		w := 1
		for gradDim(L, w+1, d) <= c.Dim {
			w++
		}
		c.M1 = w
	}
	c.Dim = gradDim(L, c.M1, d)
	if c.Dim > MaxDim {
		return check.New(check.Option, "m1", "rf: grad features of width Config.M1 %d have more than %d columns; use a smaller width", c.M1, MaxDim)
	}
	c.Sampler = Gaussian // the network's weights are plain Gaussian
	din := d
	for range L {
		p.layers = append(p.layers, layerPlan{din: din, m1: c.M1})
		din = c.M1
	}
	return nil
}
