package data

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
)

// Prep selects the preprocessing a Scaler applies after imputation. The
// zero value is the default: standardize every column (training
// statistics), no row normalization. In JSON it is the JavaScript API's
// {"standardize": true, "unitNorm": false}.
type Prep struct {
	Raw      bool // keep the columns' scale (impute only) instead of centring and scaling to unit variance
	UnitNorm bool // then scale each row to unit Euclidean norm
}

type prepJSON struct {
	Standardize *bool `json:"standardize"`
	UnitNorm    bool  `json:"unitNorm"`
}

// MarshalJSON writes p as {"standardize", "unitNorm"}.
func (p Prep) MarshalJSON() ([]byte, error) {
	std := !p.Raw
	return json.Marshal(prepJSON{&std, p.UnitNorm})
}

// UnmarshalJSON reads {"standardize", "unitNorm"}; an absent standardize
// means true.
func (p *Prep) UnmarshalJSON(b []byte) error {
	var w prepJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Prep{Raw: w.Standardize != nil && !*w.Standardize, UnitNorm: w.UnitNorm}
	return nil
}

// Scaler imputes missing values and standardizes with statistics of the
// rows it was fitted on, so test rows get exactly the training transform.
type Scaler struct {
	prep   Prep
	groups []Group
	fill   []float64 // per X column: value imputed (numeric mean, or one-hot of the most frequent category)
	// Standardizing computes ((x/div) − mu)·inv, dividing by the column's
	// largest magnitude first so that no sum overflows even for ±1e308.
	div, mu, inv []float64
}

// Prep returns the preprocessing the scaler was fitted for.
func (s *Scaler) Prep() Prep { return s.prep }

// Fit learns imputation values and, unless p.Raw, column statistics
// from the rows of X. NaN marks a missing value; ±Inf is an error. groups
// (Dataset.Groups) says which columns form one-hot blocks; nil treats every
// column as numeric.
//
// A numeric column is imputed with its mean over the rows present, a
// categorical block with its most frequent category (ties: the first); a
// column with no value at all is imputed with zeros. Statistics are taken
// after imputation. A constant column is centred to 0 and not scaled.
//
// Fit is Collect then Stats.Scaler: statistics of row blocks collected
// apart (workers, machines) and merged give the same Scaler to rounding.
func Fit(X *mat.Dense, groups []Group, p Prep) (*Scaler, error) {
	s, err := Collect(X, groups)
	if err != nil {
		return nil, err
	}
	return s.Scaler(p)
}

// Prepare fits p on the rows of X and applies it to them: the
// preprocessing a fit on X would apply, for showing or comparing the data
// a model sees.
func Prepare(X *mat.Dense, groups []Group, p Prep) (*mat.Dense, error) {
	s, err := Fit(X, groups, p)
	if err != nil {
		return nil, err
	}
	return s.Apply(nil, X)
}

func checkInf(X *mat.Dense) error {
	n, c := X.Dims()
	for i := range n {
		for j, v := range X.RawRowView(i)[:c] {
			if math.IsInf(v, 0) {
				return check.New(check.NonFinite, "", "data: X has %v at row %d, column %d; use finite values, or NaN to mark a missing one", v, i, j)
			}
		}
	}
	return nil
}

func checkGroups(groups []Group, c int) error {
	p := 0
	for k, g := range groups {
		if g.Start != p || g.Width < 0 || !g.Categorical && g.Width != 1 {
			return fmt.Errorf("data: group %d (start %d, width %d) does not continue the groups before it at column %d; pass Dataset.Groups unchanged, or nil", k, g.Start, g.Width, p)
		}
		p += g.Width
	}
	if p != c {
		return check.New(check.Shape, "", "data: the groups cover %d columns but X has %d; pass the Groups of the Dataset X came from, or nil", p, c)
	}
	return nil
}

// category returns the index of the largest entry of a one-hot block, or
// −1 if the block is missing (has a NaN) or all zero.
func category(block []float64) int {
	k := -1
	for c, v := range block {
		if math.IsNaN(v) {
			return -1
		}
		if v != 0 && (k < 0 || v > block[k]) {
			k = c
		}
	}
	return k
}

// impute copies src to dst with missing values filled.
func (s *Scaler) impute(dst, src []float64) {
	copy(dst, src)
	for _, g := range s.groups {
		block := dst[g.Start : g.Start+g.Width]
		for _, v := range block {
			if math.IsNaN(v) {
				copy(block, s.fill[g.Start:g.Start+g.Width])
				break
			}
		}
	}
}

// Apply imputes, standardizes and normalizes the rows of X into dst, which
// may be X itself; nil allocates. X needs the column count the Scaler was
// fitted with; NaN marks a missing value, ±Inf is an error.
func (s *Scaler) Apply(dst, X *mat.Dense) (*mat.Dense, error) {
	if X == nil || X.IsEmpty() {
		return nil, errors.New("data: cannot scale an empty matrix")
	}
	n, c := X.Dims()
	if c != len(s.fill) {
		return nil, check.New(check.Shape, "", "data: X has %d columns but the scaler was fitted on %d; use the same features for training and test rows", c, len(s.fill))
	}
	if err := checkInf(X); err != nil {
		return nil, err
	}
	if dst == nil {
		dst = mat.NewDense(n, c, nil)
	} else if r, k := dst.Dims(); r != n || k != c {
		return nil, fmt.Errorf("data: dst is %d×%d but X is %d×%d; pass a matching dst or nil", r, k, n, c)
	}
	for i := range n {
		row := dst.RawRowView(i)
		s.impute(row, X.RawRowView(i))
		if !s.prep.Raw {
			for j, v := range row {
				row[j] = (v/s.div[j] - s.mu[j]) * s.inv[j]
			}
		}
		if s.prep.UnitNorm {
			if norm := floats.Norm(row, 2); norm > 0 {
				for j := range row {
					row[j] /= norm // not ·(1/norm): that overflows for subnormal norms
				}
			}
		}
	}
	return dst, nil
}
