package fitbeam

import (
	"encoding/binary"
	"encoding/json"
	"reflect"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
)

// The elements that travel between workers. Each wraps a core type whose
// fields are unexported: Beam's default coder (JSON of the exported
// fields) would send them empty, so each has a coder here that sends the
// core's own wire form.

// Census is a data.Census in a pipeline (nil: nothing surveyed yet).
type Census struct{ c *data.Census }

// Stats is a data.Stats in a pipeline (nil: no rows yet).
type Stats struct{ s *data.Stats }

// Part is a pipeline.Part in a pipeline, with the plan it belongs to, by
// its spec (nil: no rows yet).
type Part struct {
	spec string
	p    *pipeline.Part
}

// Settled is what the whole data set settles before any row is learned
// from: the schema (columns, classes, task), each shard's first row key,
// and the number of rows. It is small (a side input).
type Settled struct {
	Schema  data.Schema    `json:"schema"`
	Offsets map[string]int `json:"offsets"`
	Rows    int            `json:"rows"`
	// Choice is what the 'auto' selection settled (nil before it, or
	// when nothing was open).
	Choice *Choice `json:"choice,omitempty"`
}

// Choice is the depth (0: as configured) and preprocessing a selection
// settled, and the selection, saved with the model.
type Choice struct {
	Depth     int                 `json:"depth"`
	Prep      data.Prep           `json:"prep"`
	Selection *pipeline.Selection `json:"selection"`
}

func init() {
	beam.RegisterCoder(reflect.TypeFor[Census](), encodeCensus, decodeCensus)
	beam.RegisterCoder(reflect.TypeFor[Stats](), encodeStats, decodeStats)
	beam.RegisterCoder(reflect.TypeFor[Part](), encodePart, decodePart)
	beam.RegisterCoder(reflect.TypeFor[Settled](), encodeSettled, decodeSettled)
}

func encodeCensus(c Census) ([]byte, error) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.MarshalBinary()
}

func decodeCensus(b []byte) (Census, error) {
	if len(b) == 0 {
		return Census{}, nil
	}
	c, err := data.DecodeCensus(b)
	return Census{c}, err
}

func encodeStats(s Stats) []byte {
	if s.s == nil {
		return nil
	}
	return s.s.AppendBinary(nil)
}

func decodeStats(b []byte) (Stats, error) {
	if len(b) == 0 {
		return Stats{}, nil
	}
	s, err := data.DecodeStats(b)
	return Stats{s}, err
}

// A part's form: its plan's spec, length first, then the core's wire form
// of the part (pipeline.Part.AppendBinary).
func encodePart(p Part) []byte {
	if p.p == nil {
		return nil
	}
	b := binary.AppendUvarint(nil, uint64(len(p.spec)))
	b = append(b, p.spec...)
	return p.p.AppendBinary(b)
}

func decodePart(b []byte) (Part, error) {
	if len(b) == 0 {
		return Part{}, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return Part{}, check.New(check.Parse, "", "fitbeam: a part's plan spec is cut short")
	}
	spec := string(b[k : k+int(n)])
	plan, err := planOf(spec)
	if err != nil {
		return Part{}, err
	}
	p, err := plan.DecodePart(b[k+int(n):])
	return Part{spec, p}, err
}

func encodeSettled(s Settled) ([]byte, error) { return json.Marshal(s) }

func decodeSettled(b []byte) (Settled, error) {
	var s Settled
	if err := json.Unmarshal(b, &s); err != nil {
		return s, check.New(check.Parse, "", "fitbeam: settled schema: %v", err)
	}
	return s, s.Schema.Check()
}

// plans caches each spec's plan: a worker decodes many parts of one plan,
// and drawing its feature map once is enough (parts of one plan merge).
var plans sync.Map // spec → *planOnce

type planOnce struct {
	once sync.Once
	plan *pipeline.Plan
	err  error
}

// planOf returns the plan of a spec (Options.spec), made once per process.
func planOf(spec string) (*pipeline.Plan, error) {
	v, _ := plans.LoadOrStore(spec, &planOnce{})
	po := v.(*planOnce)
	po.once.Do(func() {
		var ps planSpec
		if err := json.Unmarshal([]byte(spec), &ps); err != nil {
			po.err = check.New(check.Parse, "", "fitbeam: plan spec: %v", err)
			return
		}
		po.plan, po.err = ps.plan()
	})
	return po.plan, po.err
}
