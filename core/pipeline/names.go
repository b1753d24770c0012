package pipeline

import (
	"math"

	"ntkrf/core/krr"
	"ntkrf/internal/check"
)

// ClassNames returns the class name of each class index in labels (what
// Predict and PredictCSV return for classification): Classes()[i] for
// label i. Predictions are numbers in every host (class indices, or
// values); this, and the package's model.classNames, name them: the one
// rule that `ntkrf predict` and the package's predictCSV follow when they
// answer in names. A regression model has no classes (ERR_DATA); a label
// that is not a class index is ERR_VALUE, naming it.
func (p *Pipeline) ClassNames(labels []float64) ([]string, error) {
	if p.Task() != krr.Classification {
		return nil, check.New(check.Data, "", "pipeline: a %s model predicts values, which have no class names", p.Task())
	}
	names := make([]string, len(labels))
	for i, v := range labels {
		if v != math.Trunc(v) || v < 0 || v >= float64(len(p.classes)) {
			return nil, check.New(check.Value, "labels", "pipeline: labels[%d] = %v is not a class index of this model (an integer in 0…%d)", i, v, len(p.classes)-1)
		}
		names[i] = p.classes[int(v)]
	}
	return names, nil
}
