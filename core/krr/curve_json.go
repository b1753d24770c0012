package krr

import (
	"encoding/json"
	"math"

	"ntkrf/internal/strict"
)

// Curve is a λ curve in its JSON form. A λ whose criterion could not be
// evaluated scores +Inf (lower is better); JSON has no Inf, so it is
// written as null — what JSON.stringify writes too — and read back as +Inf.
type Curve []CurvePoint

type curvePoint struct {
	Lambda   float64  `json:"lambda"`
	Score    *float64 `json:"score"`
	Accuracy float64  `json:"accuracy,omitempty"`
}

// MarshalJSON writes +Inf (or NaN) scores as null.
func (c Curve) MarshalJSON() ([]byte, error) {
	out := make([]curvePoint, len(c))
	for i, p := range c {
		out[i].Lambda, out[i].Accuracy = p.Lambda, p.Accuracy
		if !math.IsInf(p.Score, 0) && !math.IsNaN(p.Score) {
			out[i].Score = &c[i].Score
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads a null score as +Inf, strictly (unknown fields,
// non-finite numbers refused).
func (c *Curve) UnmarshalJSON(b []byte) error {
	var in []curvePoint
	if err := strict.Unmarshal(b, &in); err != nil {
		return err
	}
	*c = make(Curve, len(in))
	for i, p := range in {
		(*c)[i] = CurvePoint{Lambda: p.Lambda, Score: math.Inf(1), Accuracy: p.Accuracy}
		if p.Score != nil {
			(*c)[i].Score = *p.Score
		}
	}
	return nil
}
