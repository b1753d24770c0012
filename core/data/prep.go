package data

import (
	"encoding/json"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ntkrf/internal/check"
	"ntkrf/internal/strict"
)

// Prep selects the preprocessing a Scaler applies after imputation. The
// zero value is the default: standardize every column (training
// statistics), no row normalization, no bias input. In JSON it is the
// JavaScript API's {"standardize": true, "unitNorm": false}, with "bias"
// only when it is set.
type Prep struct {
	Raw      bool // keep the columns' scale (impute only) instead of centring and scaling to unit variance
	UnitNorm bool // then scale each row to unit Euclidean norm
	// Bias, when > 0, appends a constant input to every row after the
	// other steps: Bias times the root-mean-square norm of the training
	// rows so preprocessed (1: the first layer's pre-activations get equal
	// shares of data and bias, whatever the columns' scale). The kernels and
	// features of the rows are then those of a ReLU network whose first
	// layer has biases (without them the NTK is positively homogeneous, so
	// a prediction's sign depends on the direction of x only). 0 means
	// none; at most MaxBias.
	Bias float64
}

// DefaultBias is the bias that model selection tries ('auto'): a constant
// input as large as a typical training row.
const DefaultBias = 1

// MaxBias bounds Prep.Bias: beyond it the rows are a rounding error beside
// the constant.
const MaxBias = 1e3

type prepJSON struct {
	Standardize *bool   `json:"standardize"`
	UnitNorm    bool    `json:"unitNorm"`
	Bias        float64 `json:"bias,omitempty"`
}

// MarshalJSON writes p as {"standardize", "unitNorm"}, and "bias" when it
// is set.
func (p Prep) MarshalJSON() ([]byte, error) {
	std := !p.Raw
	return json.Marshal(prepJSON{&std, p.UnitNorm, p.Bias})
}

// UnmarshalJSON reads {"standardize", "unitNorm", "bias"} strictly (see
// internal/strict); an absent standardize means true, an absent unitNorm
// false, an absent bias none. The bias is checked.
func (p *Prep) UnmarshalJSON(b []byte) error {
	var w struct {
		Standardize *bool   `json:"standardize,omitempty"`
		UnitNorm    *bool   `json:"unitNorm,omitempty"`
		Bias        float64 `json:"bias,omitempty"`
	}
	if err := strict.Unmarshal(b, &w); err != nil {
		return err
	}
	q := Prep{Raw: w.Standardize != nil && !*w.Standardize, UnitNorm: w.UnitNorm != nil && *w.UnitNorm, Bias: w.Bias}
	if err := q.Check(); err != nil {
		return err
	}
	*p = q
	return nil
}

// Check returns an error unless the bias is 0 or in (0, MaxBias].
func (p Prep) Check() error {
	if !(p.Bias >= 0 && p.Bias <= MaxBias) {
		return check.New(check.Option, "bias", "data: bias %v is out of range; use 0 (none) … %g", p.Bias, float64(MaxBias))
	}
	return nil
}

// Width returns the number of columns the preprocessing makes of rows of
// cols columns: one more with a bias input.
func (p Prep) Width(cols int) int {
	if p.Bias > 0 {
		return cols + 1
	}
	return cols
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
	bias         float64 // the constant input appended (0: none), fitted from Prep.Bias
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
// after imputation. A constant column is centred to 0 and not scaled; the
// bias input (p.Bias) is appended after the other steps, so standardizing
// or normalizing never removes it.
//
// Fit is Collect then Stats.Scaler: statistics of row blocks collected
// apart (workers, machines) and merged give the same Scaler to rounding.
func Fit(X *mat.Dense, groups []Group, p Prep) (*Scaler, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
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
		// A call per row: see Stats.block.
		if j := infAt(X.RawRowView(i)[:c]); j >= 0 {
			v := X.At(i, j)
			return check.New(check.NonFinite, "", "data: X has %v at row %d, column %d; use finite values, or NaN to mark a missing one", v, i, j)
		}
	}
	return nil
}

// infAt returns the index of the first ±Inf in row, or -1.
//
//go:noinline
func infAt(row []float64) int {
	for j, v := range row {
		if math.IsInf(v, 0) {
			return j
		}
	}
	return -1
}

func checkGroups(groups []Group, c int) error {
	p := 0
	for k, g := range groups {
		const fix = "groups must tile the columns in order: give the groups of the parsed data set unchanged, or none"
		switch {
		case g.Width < 0 || !g.Categorical && g.Width != 1:
			return check.New(check.Option, "groups", "data: group %d (start %d) is %d columns wide, but a numeric group is 1 column and a categorical one at least 0; %s", k, g.Start, g.Width, fix)
		case g.Start != p:
			return check.New(check.Option, "groups", "data: group %d starts at column %d, but the groups before it end at column %d: groups may not overlap or leave gaps; %s", k, g.Start, p, fix)
		}
		p += g.Width
	}
	if p != c {
		return check.New(check.Shape, "groups", "data: the groups cover %d columns but X has %d; give the groups of the data set X was parsed from, or none", p, c)
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

// Apply imputes, standardizes and normalizes the rows of X and appends the
// bias input into dst, of OutCols columns: X itself when there is no bias,
// or nil to allocate. X needs the column count the Scaler was fitted with;
// NaN marks a missing value, ±Inf is an error.
func (s *Scaler) Apply(dst, X *mat.Dense) (*mat.Dense, error) {
	if X == nil || X.IsEmpty() {
		return nil, check.New(check.Shape, "", "data: cannot scale an empty matrix; it needs at least one row and one column")
	}
	n, c := X.Dims()
	if c != len(s.fill) {
		return nil, check.New(check.Shape, "", "data: X has %d columns but the scaler was fitted on %d; use the same features for training and test rows", c, len(s.fill))
	}
	if err := checkInf(X); err != nil {
		return nil, err
	}
	w := s.prep.Width(c)
	if dst == nil {
		dst = mat.NewDense(n, w, nil)
	} else if r, k := dst.Dims(); r != n || k != w {
		return nil, check.New(check.Shape, "", "data: dst is %d×%d but the scaled X is %d×%d; pass a matching dst or nil", r, k, n, w)
	}
	for i := range n {
		s.prepare(dst.RawRowView(i)[:c], X.RawRowView(i))
		if w > c {
			dst.Set(i, c, s.bias)
		}
	}
	return dst, nil
}

// prepare imputes, standardizes and normalizes one row into dst.
func (s *Scaler) prepare(row, src []float64) {
	s.impute(row, src)
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

// BiasInput returns the constant input Apply appends to every row, or 0
// when there is none.
func (s *Scaler) BiasInput() float64 { return s.bias }
