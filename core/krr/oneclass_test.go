package krr

import (
	"errors"
	"strings"
	"testing"

	"ntkrf/core/errs"
)

// Targets of one class, with no classes given, are the data's fault
// (errs.Data, no option named): the caller gave no "classes" to change.
// A classes option of 1 given by the caller stays errs.Option.
func TestOneClassIsTheData(t *testing.T) {
	for _, y := range [][]float64{{0}, {0, 0, 0, 0}} {
		_, _, err := Options{Task: Classification}.Labels(y)
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.Data || e.Option != "" || !strings.Contains(e.Msg, "class 0 only") {
			t.Errorf("Labels(%v): %v, want a data error naming class 0", y, err)
		}
	}
	_, _, err := Options{Task: Classification, Classes: 1}.Labels([]float64{0, 0})
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.Option || e.Option != "classes" {
		t.Errorf("classes 1 given: %v, want an option error naming classes", err)
	}
}
