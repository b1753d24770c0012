package metrics

import (
	"math"
	"testing"
)

// Each class's precision, recall, F1 and support from a confusion matrix,
// checked by hand (scikit-learn's classification_report gives the same:
// precision 2/3, 1/2, 0; recall 1, 1/3, 0 with zero_division=0).
func TestPerClass(t *testing.T) {
	yTrue := []float64{0, 0, 1, 1, 1, 2}
	yPred := []float64{0, 0, 1, 0, 2, 1}
	c, err := Confusion(yTrue, yPred, 3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := PerClass(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []ClassScore{
		{Precision: 2.0 / 3, Recall: 1, F1: 0.8, Support: 2},
		{Precision: 0.5, Recall: 1.0 / 3, F1: 0.4, Support: 3},
		{Precision: 0, Recall: 0, F1: 0, Support: 1},
	}
	const tol = 1e-12
	for i, w := range want {
		g := got[i]
		if math.Abs(g.Precision-w.Precision) > tol || math.Abs(g.Recall-w.Recall) > tol || math.Abs(g.F1-w.F1) > tol || g.Support != w.Support {
			t.Errorf("class %d: %+v, want %+v", i, g, w)
		}
	}
	if _, err := PerClass([][]int{{1, 2}, {3}}); err == nil {
		t.Error("a ragged matrix was accepted")
	}
}
