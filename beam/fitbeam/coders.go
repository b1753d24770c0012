package fitbeam

import (
	"encoding/binary"
	"encoding/json"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"ntkrf/core/data"
	"ntkrf/core/protocol"
	"ntkrf/internal/check"
)

// The elements that travel between workers. Each wraps a core type whose
// fields are unexported: Beam's default coder (JSON of the exported
// fields) would send them empty, so each has a coder here that sends the
// core's own wire form. Parts travel as bytes (parts.go).

// Census is a data.Census in a pipeline (nil: nothing surveyed yet).
type Census struct{ c *data.Census }

// Stats is a data.Stats in a pipeline (nil: no rows yet).
type Stats struct{ s *data.Stats }

// Shard is a shard for a step that reads it, with what that step needs of
// the whole data set: the settled data set (its own first row key only)
// and, for the parts, the merged statistics (Fit says why elements carry
// them, not side inputs).
type Shard struct {
	Path    string
	Settled Settled
	Stats   Stats
}

// Settled is what the whole data set settles before any row is learned
// from: the schema (columns, classes, task), each shard's first row key,
// the number of rows, and the fit's plan (protocol.Plan's bytes; the
// selection replaces an open plan with the one it settled). It is small (a
// side input).
type Settled struct {
	Schema  data.Schema    `json:"schema"`
	Offsets map[string]int `json:"offsets"`
	Rows    int            `json:"rows"`
	Shards  int            `json:"shards"`
	Plan    []byte         `json:"plan"`
}

// plan is the fit's plan (decoded once per process: the core keeps the
// plans decoded last, their feature maps drawn once).
func (s Settled) plan() (*protocol.Plan, error) { return protocol.DecodePlan(s.Plan) }

func init() {
	beam.RegisterCoder(reflect.TypeFor[Census](), encodeCensus, decodeCensus)
	beam.RegisterCoder(reflect.TypeFor[Stats](), func(s Stats) []byte { return encodeStats(s, nil) }, decodeStats)
	beam.RegisterCoder(reflect.TypeFor[Settled](), encodeSettled, decodeSettled)
	beam.RegisterCoder(reflect.TypeFor[Shard](), encodeShard, decodeShard)
}

func encodeCensus(c Census) ([]byte, error) {
	if c.c == nil {
		return nil, nil
	}
	return c.c.MarshalBinary()
}

func decodeCensus(b []byte) (_ Census, err error) {
	defer tag(&err)
	if len(b) == 0 {
		return Census{}, nil
	}
	c, err := data.DecodeCensus(b)
	return Census{c}, err
}

// encodeStats appends the statistics' form to b (none: no statistics).
func encodeStats(s Stats, b []byte) []byte {
	if s.s == nil {
		return b
	}
	return s.s.AppendBinary(b)
}

func decodeStats(b []byte) (_ Stats, err error) {
	defer tag(&err)
	if len(b) == 0 {
		return Stats{}, nil
	}
	s, err := data.DecodeStats(b)
	return Stats{s}, err
}

// appendField appends f to b, its length first.
func appendField(b, f []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(f))), f...)
}

// field reads a field appendField wrote and returns it and what follows.
func field(b []byte, what string) (f, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, check.New(check.Parse, "", "fitbeam: a %s is cut short", what)
	}
	return b[k : k+int(n)], b[k+int(n):], nil
}

// A shard's form: its path and settled data set (JSON), length first,
// then the statistics' form (none: no statistics).
func encodeShard(s Shard) ([]byte, error) {
	j, err := json.Marshal(shardJSON{s.Path, s.Settled})
	if err != nil {
		return nil, err
	}
	return encodeStats(s.Stats, appendField(nil, j)), nil
}

type shardJSON struct {
	Path    string  `json:"path"`
	Settled Settled `json:"settled"`
}

func decodeShard(b []byte) (_ Shard, err error) {
	defer tag(&err)
	j, b, err := field(b, "shard")
	if err != nil {
		return Shard{}, err
	}
	var sj shardJSON
	if err := json.Unmarshal(j, &sj); err != nil {
		return Shard{}, check.New(check.Parse, "", "fitbeam: shard: %v", err)
	}
	if err := sj.Settled.Schema.Check(); err != nil {
		return Shard{}, err
	}
	st, err := decodeStats(b)
	return Shard{sj.Path, sj.Settled, st}, err
}
func encodeSettled(s Settled) ([]byte, error) { return json.Marshal(s) }

// of is the settled data set as a shard at path needs it: its own first
// row key only ("": none), and the number of shards.
func (s Settled) of(path string) Settled {
	first, ok := s.Offsets[path]
	s.Shards, s.Offsets = len(s.Offsets), nil
	if ok {
		s.Offsets = map[string]int{path: first}
	}
	return s
}

func decodeSettled(b []byte) (_ Settled, err error) {
	defer tag(&err)
	var s Settled
	if err := json.Unmarshal(b, &s); err != nil {
		return s, check.New(check.Parse, "", "fitbeam: settled schema: %v", err)
	}
	return s, s.Schema.Check()
}
