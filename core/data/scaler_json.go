package data

import (
	"encoding/json"
	"fmt"

	"ntkrf/internal/check"
	"ntkrf/internal/strict"
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

// UnmarshalJSON restores a Scaler encoded by MarshalJSON, strictly (see
// internal/strict: no null, no unknown or missing field), checking that
// its parts fit together: errors carry the path of the field at fault.
func (s *Scaler) UnmarshalJSON(b []byte) error {
	var w scalerJSON
	if err := strict.Unmarshal(b, &w); err != nil {
		return err
	}
	bad := func(code check.Code, path, format string, a ...any) error {
		return &strict.Error{Code: code, Path: path, Msg: fmt.Sprintf(format, a...)}
	}
	p := len(w.Fill)
	if p == 0 {
		return bad(check.Shape, "fill", "is empty: a scaler has at least one column")
	}
	stats := map[string][]float64{"div": w.Div, "mu": w.Mu, "inv": w.Inv}
	for _, name := range []string{"div", "mu", "inv"} {
		v := stats[name]
		if !w.Standardize && v != nil {
			return bad(check.Value, name, "is given, but a scaler that does not standardize has no statistics")
		}
		if w.Standardize && len(v) != p {
			return bad(check.Shape, name, "has %d values for %d columns", len(v), p)
		}
	}
	// div and inv scale: a zero or negative one would turn every row into
	// ±Inf or NaN, or mirror it.
	for _, name := range []string{"div", "inv"} {
		for j, x := range stats[name] {
			if !(x > 0) {
				return bad(check.Value, fmt.Sprintf("%s[%d]", name, j), "is %v; a scale is positive", x)
			}
		}
	}
	if err := checkGroups(w.Groups, p); err != nil {
		return strict.At("groups", check.New(check.Value, "", "%v", err))
	}
	prep := Prep{Raw: !w.Standardize, UnitNorm: w.UnitNorm, Bias: w.Bias}
	if err := prep.Check(); err != nil {
		return strict.At("bias", check.New(check.Value, "", "%v", err))
	}
	if (w.Bias > 0) != (w.BiasInput > 0) {
		return bad(check.Value, "biasInput", "is %v with bias %v; a scaler with a bias has a positive input, one without has neither", w.BiasInput, w.Bias)
	}
	*s = Scaler{prep: prep, groups: w.Groups, fill: w.Fill, div: w.Div, mu: w.Mu, inv: w.Inv, bias: w.BiasInput}
	return nil
}

// Groups returns the one-hot blocks the scaler imputes as a whole (one
// per column when it was fitted without groups).
func (s *Scaler) Groups() []Group { return s.groups }

// Cols returns the number of columns the scaler was fitted on.
func (s *Scaler) Cols() int { return len(s.fill) }

// OutCols returns the number of columns Apply makes: Cols, one more with
// a bias input. Feature maps and kernels of the scaled rows take this many.
func (s *Scaler) OutCols() int { return s.prep.Width(len(s.fill)) }
