package main

import (
	"strings"
	"testing"
)

func TestReproUnknown(t *testing.T) {
	for _, args := range [][]string{nil, {"fig9"}} {
		if err := runRepro(args); err == nil || !strings.HasPrefix(err.Error(), "repro: ") {
			t.Errorf("runRepro(%q) = %v, want an error starting with \"repro: \"", args, err)
		}
	}
}
