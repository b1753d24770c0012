package main

import (
	"strings"
	"testing"
)

// TestBenchFlags: a bad precision or core count is refused with the flag
// named, before the data set is read.
func TestBenchFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-precision", "float16"}, "-precision"},
		{[]string{"-precision", ""}, "-precision"},
		{[]string{"-procs", "x"}, "-procs"},
		{[]string{"-procs", "0,2"}, "-procs"},
	} {
		err := runBench(c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bench %v: %v; want an error naming %s", c.args, err, c.want)
		}
	}
}
