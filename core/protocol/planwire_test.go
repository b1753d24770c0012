package protocol

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ntkrf/core/data"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// TestPlanWireRoundTrip: a plan's wire form decodes to a plan of the same
// digest and settings, whose parts are the original's (a part made with
// one merges into the other's), for every kind of plan: sums, held-out
// rows, collected rows, kernels, open ('auto').
func TestPlanWireRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := append(protocolCases(), autoCases()...)
	for _, tc := range cases {
		X, y := fixture.Holey(300, tc.k)
		n, d := X.Dims()
		p, err := NewPlan(tc.cfg, n, d, y)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := p.MarshalBinary()
		q, err := DecodePlan(b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if q.Digest() != p.Digest() || q.Rows() != p.Rows() || q.Dim() != p.Dim() || q.Collects() != p.Collects() || q.Task() != p.Task() || q.Classes() != p.Classes() {
			t.Fatalf("%s: decoded plan differs", tc.name)
		}
		if again, _ := DecodePlan(b); again != q {
			t.Errorf("%s: the same plan decoded twice was not kept", tc.name)
		}
		// What a host does with the plan is the same with its bytes: the
		// rows it searches, the candidates it scores, the chunks it cuts.
		if !slices.Equal(q.SearchRows(), p.SearchRows()) || q.Candidates() != p.Candidates() || !slices.Equal(q.Chunks(4096), p.Chunks(4096)) {
			t.Fatalf("%s: the decoded plan searches %d rows with %d candidates; the plan %d with %d", tc.name, len(q.SearchRows()), q.Candidates(), len(p.SearchRows()), p.Candidates())
		}
		if idx := p.SearchRows(); idx != nil {
			// Open: both settle to the same plan, the selection's record included.
			stats := p.NewStats()
			if err := stats.Add(X); err != nil {
				t.Fatal(err)
			}
			ps, psel, err := p.Select(ctx, data.Rows(X, idx), data.Take(y, idx), stats)
			if err != nil {
				t.Fatal(err)
			}
			qs, qsel, err := q.Select(ctx, data.Rows(X, idx), data.Take(y, idx), stats)
			if err != nil {
				t.Fatal(err)
			}
			pj, _ := json.Marshal(psel)
			qj, _ := json.Marshal(qsel)
			if ps.Digest() != qs.Digest() || !bytes.Equal(pj, qj) {
				t.Fatalf("%s: the decoded open plan settles otherwise:\n%s\n%s", tc.name, qj, pj)
			}
			continue // parts come from the settled plan
		}
		stats := p.NewStats()
		if err := stats.Add(X); err != nil {
			t.Fatal(err)
		}
		s, err := p.Scaler(stats)
		if err != nil {
			t.Fatal(err)
		}
		a, b2 := part(t, p, s, X, y, 0, 100), part(t, q, s, X, y, 100, n)
		if err := a.MergeBinary(b2.AppendBinary(nil)); err != nil {
			t.Fatalf("%s: a part of the decoded plan: %v", tc.name, err)
		}
		if _, err := q.Solve(ctx, s, a); err != nil {
			t.Fatalf("%s: solving with the decoded plan: %v", tc.name, err)
		}
	}
}

// formField is the plan form's version in its JSON.
var formField = regexp.MustCompile(`"Form":[0-9]+`)

// TestPlanWireRefuses: forms no plan wrote are refused with a code.
func TestPlanWireRefuses(t *testing.T) {
	t.Parallel()
	plan, _, _, _ := smallPlan(t, false)
	good, _ := plan.MarshalBinary()
	js := good[12+8:]
	form := func(js []byte) []byte {
		b := append([]byte(nil), good[:12]...)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(js)))
		return append(b, js...)
	}
	for _, bad := range []struct {
		name string
		b    []byte
		code check.Code
	}{
		{"truncated", good[:len(good)-1], check.Shape},
		{"not a plan", good[4:], check.Type},
		{"not JSON", form([]byte("{")), check.Parse},
		{"an unknown setting", form(append(bytes.Clone(js[:len(js)-1]), []byte(`,"Extra":1}`)...)), check.Parse},
		{"an output that does not follow", form(bytes.Replace(js, []byte(`"Dim":`), []byte(`"Dim":1`), 1)), check.Protocol},
		{"another form", form(bytes.Replace(js, formField.Find(js), []byte(`"Form":9`), 1)), check.Protocol},
		{"settings NewPlan refuses", form(bytes.Replace(js, []byte(`"Rows":`), []byte(`"Rows":-`), 1)), check.Shape},
	} {
		if _, err := DecodePlan(bad.b); check.CodeOf(err) != bad.code {
			t.Errorf("%s: %v, want %s", bad.name, err, bad.code)
		}
	}
	if !strings.Contains(string(js), `"Dim":`) {
		t.Fatal("the form names no Dim: the refusals above tested nothing")
	}
}

// FuzzDecodePlan: any bytes decode to a plan or are refused with a code.
func FuzzDecodePlan(f *testing.F) {
	plan, _, _, _ := smallPlan(f, true)
	b, _ := plan.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodePlan(b)
		if err != nil {
			if check.CodeOf(err) == "" {
				t.Fatalf("uncoded error: %v", err)
			}
			return
		}
		if again, _ := p.MarshalBinary(); !bytes.Equal(again, b) {
			t.Fatal("a decoded plan writes other bytes")
		}
	})
}
