package fitflags_test

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"testing"

	"ntkrf/core/data"
	"ntkrf/internal/check"
	"ntkrf/internal/fitflags"
)

func parse(args ...string) (fitflags.Fit, error) {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := fitflags.Register(fs)
	if err := fs.Parse(args); err != nil {
		return fitflags.Fit{}, err
	}
	return f.Fit()
}

// TestDefaultsAreTheCore: no flag is the zero Fit (the core's default
// fit), and every flag given its shown default explicitly fits the same:
// the same resolved map, 'auto' depth, preprocessing and λ, the core's
// first missing-value setting. It fails when a default shown drifts from
// the core's.
func TestDefaultsAreTheCore(t *testing.T) {
	none, err := parse()
	if err != nil || !reflect.DeepEqual(none, fitflags.Fit{}) {
		t.Fatalf("no flags: %+v, %v; want the zero Fit", none, err)
	}
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fitflags.Register(fs)
	var args []string
	fs.VisitAll(func(f *flag.Flag) { args = append(args, "-"+f.Name+"="+f.DefValue) })
	o, err := parse(args...)
	if err != nil {
		t.Fatal(err)
	}
	a, err := o.Features.Resolve(4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := none.Features.Resolve(4)
	if !reflect.DeepEqual(a, b) || o.Features.Depth != 0 || o.Prep != nil || o.Lambda != 0 || o.Data.Task != "" || o.Gram != "" {
		t.Errorf("explicit defaults %+v resolve to %+v; the core's default %+v", o, a, b)
	}
	if o.Data.Missing != data.MissingSettings()[0] {
		t.Errorf("-missing defaults to %q; the core's default is %q", o.Data.Missing, data.MissingSettings()[0])
	}
}

// TestFlags: each flag sets its option, or is refused with a coded error
// naming it.
func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code check.Code
		want func(fitflags.Fit) bool
	}{
		{[]string{"-target", "2"}, "", func(o fitflags.Fit) bool { return o.Data.TargetIndex != nil && *o.Data.TargetIndex == 2 }},
		{[]string{"-target", "name:3"}, "", func(o fitflags.Fit) bool { return o.Data.Target == "3" && o.Data.TargetIndex == nil }},
		{[]string{"-target", "species"}, "", func(o fitflags.Fit) bool { return o.Data.Target == "species" }},
		{[]string{"-lambda", "0.5", "-preprocess", `{"standardize":false}`}, "", func(o fitflags.Fit) bool { return o.Lambda == 0.5 && o.Prep.Raw }},
		{[]string{"-depth", "3", "-dim", "64", "-seed", "9"}, "", func(o fitflags.Fit) bool {
			c := o.Config()
			return c.Features.Depth == 3 && c.Features.Dim == 64 && c.Features.Seed == 9
		}},
		{[]string{"-lambda", "-1"}, check.Option, nil},
		{[]string{"-lambda", "x"}, check.Option, nil},
		{[]string{"-depth", "0"}, check.Option, nil},
		{[]string{"-preprocess", `{"bias":-1}`}, check.Option, nil},
		{[]string{"-method", "nope"}, check.Option, nil},
		{[]string{"-dim", "0"}, check.Option, nil},
		{[]string{"-precision", "float16"}, check.Option, nil},
		{[]string{"-gram", "float16"}, check.Option, nil},
	} {
		o, err := parse(tc.args...)
		if check.CodeOf(err) != tc.code {
			t.Errorf("%q: %v (code %q), want code %q", tc.args, err, check.CodeOf(err), tc.code)
			continue
		}
		if tc.want != nil && !tc.want(o) {
			t.Errorf("%q: %+v", tc.args, o)
		}
	}
}

// The flags of a fit on a command's flag set, read into the core's
// configuration.
func Example() {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	f := fitflags.Register(fs)
	fs.Parse([]string{"-depth", "2", "-dim", "256", "-lambda", "0.01"})
	fit, err := f.Fit()
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := fit.Config()
	fmt.Println(cfg.Features.Depth, cfg.Features.Dim, cfg.Ridge.Lambda, cfg.Preprocess == nil)
	// Output: 2 256 0.01 true
}
