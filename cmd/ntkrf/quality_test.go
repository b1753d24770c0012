package main

import (
	"math"
	"strings"
	"testing"
)

// TestQualityCell: on the same rows, the defaults' error is below the
// paper's TensorSketch features' (the claim ntkrf quality prints), and
// both are small positive numbers.
func TestQualityCell(t *testing.T) {
	X, err := heldOut(sharedData, "Vehicle.csv", 120)
	if err != nil {
		t.Fatal(err)
	}
	def, _, _, err := qualityCell(X, 1, 512, 2, qualityCfg{}, "")
	if err != nil {
		t.Fatal(err)
	}
	paper, _, _, err := qualityCell(X, 1, 512, 2, qualityCfg{"tensorsketch", "exact"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !(def > 0 && def < paper && paper < 1) {
		t.Errorf("errors: default %v, tensorsketch/exact %v; want 0 < default < paper < 1", def, paper)
	}
	// The default is float32 (rf.DefaultPrecision): the same bits as
	// asking for it. Float64 projections at equal m: the same error to 1 %
	// (the rounding is ~1e-7 relative, the Monte Carlo error ~1e-2), but
	// not the same bits.
	def32, _, _, err := qualityCell(X, 1, 512, 2, qualityCfg{}, "float32")
	if err != nil {
		t.Fatal(err)
	}
	def64, _, _, err := qualityCell(X, 1, 512, 2, qualityCfg{}, "float64")
	if err != nil {
		t.Fatal(err)
	}
	if def32 != def {
		t.Errorf("float32 error %v, the default's %v; want the same", def32, def)
	}
	if def64 == def32 || math.Abs(def64-def32) > 0.01*def64 {
		t.Errorf("float32 error %v, float64 %v; want within 1 %% and not identical", def32, def64)
	}
}

// TestQualityFlags: bad flags are refused with the flag named.
func TestQualityFlags(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-configs", "nonsense"}, "-configs"},
		{[]string{"-seeds", "0"}, "-seeds"},
		{[]string{"-depths", "x"}, "-depths"},
		{[]string{"-data", sharedData, "-sets", "nope.csv"}, "nope.csv"},
	}
	for _, c := range cases {
		if err := runQuality(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("quality %v: error %v, want one naming %s", c.args, err, c.want)
		}
	}
}
