package data

import (
	"encoding/json"
	"fmt"
	"math"

	"ntkrf/internal/check"
)

// scalerJSON is the wire form of a Scaler. Go's JSON encoding of float64 is
// the shortest text that reads back to the same bits, so a Scaler moved
// between processes (WebAssembly workers) transforms rows identically.
type scalerJSON struct {
	Standardize bool      `json:"standardize"`
	UnitNorm    bool      `json:"unitNorm"`
	Groups      []Group   `json:"groups"`
	Fill        []float64 `json:"fill"`
	Div         []float64 `json:"div,omitempty"`
	Mu          []float64 `json:"mu,omitempty"`
	Inv         []float64 `json:"inv,omitempty"`
	// Bias is Prep.Bias and BiasInput the constant fitted from it, both
	// absent when there is none: files without one read and write as
	// before.
	Bias      float64 `json:"bias,omitempty"`
	BiasInput float64 `json:"biasInput,omitempty"`
}

// MarshalJSON encodes the fitted statistics.
func (s *Scaler) MarshalJSON() ([]byte, error) {
	return json.Marshal(scalerJSON{!s.prep.Raw, s.prep.UnitNorm, s.groups, s.fill, s.div, s.mu, s.inv, s.prep.Bias, s.bias})
}

// UnmarshalJSON restores a Scaler encoded by MarshalJSON, checking that its
// parts fit together.
func (s *Scaler) UnmarshalJSON(b []byte) error {
	var w scalerJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("data: scaler: %v", err)
	}
	p := len(w.Fill)
	if p == 0 {
		return fmt.Errorf("data: scaler has no columns")
	}
	if w.Standardize && (len(w.Div) != p || len(w.Mu) != p || len(w.Inv) != p) {
		return fmt.Errorf("data: scaler statistics have %d, %d, %d values for %d columns", len(w.Div), len(w.Mu), len(w.Inv), p)
	}
	if err := checkGroups(w.Groups, p); err != nil {
		return err
	}
	prep := Prep{Raw: !w.Standardize, UnitNorm: w.UnitNorm, Bias: w.Bias}
	if err := prep.Check(); err != nil {
		return err
	}
	if (w.Bias > 0) != (w.BiasInput > 0) || math.IsNaN(w.BiasInput) || math.IsInf(w.BiasInput, 0) {
		return check.New(check.Value, "", "data: scaler has bias %v and bias input %v; a scaler with a bias has a positive finite input, one without has neither", w.Bias, w.BiasInput)
	}
	for _, v := range [][]float64{w.Fill, w.Div, w.Mu, w.Inv} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("data: scaler holds a non-finite statistic")
			}
		}
	}
	*s = Scaler{prep: prep, groups: w.Groups, fill: w.Fill, div: w.Div, mu: w.Mu, inv: w.Inv, bias: w.BiasInput}
	return nil
}

// Cols returns the number of columns the scaler was fitted on.
func (s *Scaler) Cols() int { return len(s.fill) }

// OutCols returns the number of columns Apply makes: Cols, one more with
// a bias input. Feature maps and kernels of the scaled rows take this many.
func (s *Scaler) OutCols() int { return s.prep.Width(len(s.fill)) }
