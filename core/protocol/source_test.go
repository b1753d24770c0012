package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/errs"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// sourceData is a parsed table of text classes with a categorical column
// (one-hot groups), 60 rows.
func sourceData(t *testing.T, classes int) *data.Dataset {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("x,colour,z,label\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%s,%g,c%d\n", i%7, []string{"red", "blue", "green"}[i%3], float64(i)/9, (i/2)%classes)
	}
	ds, err := data.Parse(b.Bytes(), data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestPlanSource: a data set's schema settles the task, classes and
// groups once, in the plan, and options that disagree with it are
// refused by name; class names of text labels make a classification of
// as many classes; one class is the data's fault (ERR_DATA).
func TestPlanSource(t *testing.T) {
	t.Parallel()
	ds := sourceData(t, 3)
	one := sourceData(t, 1)
	n, d := ds.X.Dims()
	feat := rf.Config{Dim: 16, Depth: 1}
	schema := func(ds *data.Dataset) *data.Schema { s := ds.Schema(); return &s }
	for _, tc := range []struct {
		name   string
		cfg    pipeline.Config
		cols   int
		code   check.Code
		option string
	}{
		{"the schema's task and classes", pipeline.Config{Features: feat, Input: schema(ds)}, d, "", ""},
		{"agreeing task and classes", pipeline.Config{Features: feat, Input: schema(ds), Ridge: krr.Options{Task: krr.Classification, Classes: 3}}, d, "", ""},
		{"another task", pipeline.Config{Features: feat, Input: schema(ds), Ridge: krr.Options{Task: krr.Regression}}, d, check.Option, "task"},
		{"other classes", pipeline.Config{Features: feat, Input: schema(ds), Ridge: krr.Options{Classes: 4}}, d, check.Option, "classes"},
		{"other groups", pipeline.Config{Features: feat, Input: schema(ds), Groups: []data.Group{{Column: 0, Start: 0, Width: d}}}, d, check.Option, "groups"},
		{"other class names", pipeline.Config{Features: feat, Input: schema(ds), ClassNames: []string{"a", "b", "c"}}, d, check.Option, "classNames"},
		{"rows of another width", pipeline.Config{Features: feat, Input: schema(ds)}, d + 1, check.Shape, "input"},
		{"one class", pipeline.Config{Features: feat, Input: schema(one)}, d, check.Data, ""},
		{"class names", pipeline.Config{Features: feat, ClassNames: []string{"x", "y", "z"}}, d, "", ""},
		{"class names of a regression", pipeline.Config{Features: feat, ClassNames: []string{"x", "y"}, Ridge: krr.Options{Task: krr.Regression}}, d, check.Option, "task"},
		{"class names, other classes", pipeline.Config{Features: feat, ClassNames: []string{"x", "y"}, Ridge: krr.Options{Classes: 3}}, d, check.Option, "classes"},
		{"class names repeated", pipeline.Config{Features: feat, ClassNames: []string{"x", "x"}}, d, check.Value, ""},
	} {
		p, err := NewPlan(tc.cfg, n, tc.cols, nil)
		if check.CodeOf(err) != tc.code || tc.code != "" && optionOf(err) != tc.option {
			t.Errorf("%s: %v (option %q), want %q on %q", tc.name, err, optionOf(err), tc.code, tc.option)
			continue
		}
		if err != nil {
			continue
		}
		if p.Task() != krr.Classification || p.Classes() != 3 {
			t.Errorf("%s: a plan of %s, %d classes; want classification of 3", tc.name, p.Task(), p.Classes())
		}
		if tc.cfg.Input != nil && !reflect.DeepEqual(p.Config().Groups, ds.Groups) {
			t.Errorf("%s: groups %v, want the data set's %v", tc.name, p.Config().Groups, ds.Groups)
		}
	}
}

// TestSettledPlanTravels: the plan a selection settled travels as bytes
// with what settled it: decoded anywhere it is the same plan (digest),
// and the model solved with it keeps the selection, the data set's schema
// and its class names, as FitDataset's does, bit for bit.
func TestSettledPlanTravels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ds := sourceData(t, 3)
	n, d := ds.X.Dims()
	s := ds.Schema()
	cfg := pipeline.Config{Features: rf.Config{Dim: 32, Seed: 5}, Search: pipeline.Search{Rows: 40, Depths: []int{1, 2}}}
	want, err := pipeline.FitDataset(ctx, ds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Input = &s
	open, err := NewPlan(cfg, n, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := open.SearchRows()
	if idx == nil {
		t.Fatal("nothing open")
	}
	stats := open.NewStats()
	if err := stats.AddAt(ds.X, 0); err != nil {
		t.Fatal(err)
	}
	settled, sel, err := open.Select(ctx, data.Rows(ds.X, idx), data.Take(ds.Y, idx), stats)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := settled.MarshalBinary()
	again, err := DecodePlan(slices.Clone(b))
	if err != nil {
		t.Fatal(err)
	}
	if again.Digest() != settled.Digest() {
		t.Fatal("the settled plan's bytes make another plan")
	}
	// The same settings without their selection are another plan: a part
	// of one is refused by the other.
	bare, err := NewPlan(settled.Config(), n, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if bare.Digest() == settled.Digest() {
		t.Fatal("the selection is not part of the plan's identity")
	}
	scaler, err := again.Scaler(stats)
	if err != nil {
		t.Fatal(err)
	}
	part, err := again.NewPart(scaler)
	if err != nil {
		t.Fatal(err)
	}
	if err := part.Add(ctx, ds.X, ds.Y, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := bare.Solve(ctx, scaler, part); check.CodeOf(err) != check.Protocol {
		t.Fatalf("a part solved by the plan without its selection: %v, want ERR_PROTOCOL", err)
	}
	got, err := again.Solve(ctx, scaler, part)
	if err != nil {
		t.Fatal(err)
	}
	gh, gc, _, _ := got.Split()
	wh, wc, _, _ := want.Split()
	if !bytes.Equal(gh, wh) || !slices.Equal(gc.RawMatrix().Data, wc.RawMatrix().Data) {
		t.Fatalf("the protocol's model is not FitDataset's:\n%s\n%s", gh, wh)
	}
	if !reflect.DeepEqual(got.Selection(), sel) || !slices.Equal(got.Classes(), ds.Classes) || got.Input() == nil {
		t.Fatal("the model lost what the plan held")
	}
}

// optionOf is the option an error names ("" when none).
func optionOf(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Option
	}
	return ""
}
