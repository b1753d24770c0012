package fitbeam

import (
	"sync/atomic"

	"ntkrf/core/pipeline"
	"ntkrf/internal/check"
)

// Parts travel between workers as bytes (their form, encodePart), not as
// a type with a coder: the SDK encodes the first elements of every
// collection again only to estimate their sizes, which for a part of
// m = 4096 is 67 MB each time, while bytes it only counts. A worker
// decodes the first part it merges and merges the others from their
// bytes in place (pipeline.Part.MergeBinary: no second m×m matrix).

// Part is a pipeline.Part with the plan it belongs to, by its spec, and
// what the solve needs besides the sums: the settled data set and the
// merged statistics (nil p: no rows yet).
type Part struct {
	spec string
	of   Shard // no path, no row keys
	p    *pipeline.Part
}

// partBytes counts the bytes of the parts this process sent to be
// merged: the merge's traffic (the benchmark reads it).
var partBytes atomic.Int64

// send emits a part's form under a merge key.
func send(emit func(int, []byte), key int, b []byte) {
	partBytes.Add(int64(len(b)))
	emit(key, b)
}

// A part's form: its plan's spec and its Shard's form, each length first,
// then the core's wire form of the part (pipeline.Part.AppendBinary).
func encodePart(p Part) ([]byte, error) {
	of, err := encodeShard(p.of)
	if err != nil {
		return nil, err
	}
	b := appendField(nil, []byte(p.spec))
	b = appendField(b, of)
	return p.p.AppendBinary(b), nil
}

// splitPart returns the fields of a part's form: the spec, the data set's
// form and the core's wire form.
func splitPart(b []byte) (spec, of, wire []byte, err error) {
	if spec, b, err = field(b, "part's plan spec"); err != nil {
		return nil, nil, nil, err
	}
	of, wire, err = field(b, "part's data set")
	return spec, of, wire, err
}

func decodePart(b []byte) (Part, error) {
	spec, of, wire, err := splitPart(b)
	if err != nil {
		return Part{}, err
	}
	pt := Part{spec: string(spec)}
	if pt.of, err = decodeShard(of); err != nil {
		return Part{}, err
	}
	plan, err := planOf(pt.spec)
	if err != nil {
		return Part{}, err
	}
	pt.p, err = plan.DecodePart(wire)
	return pt, err
}

// merge merges the part whose form is b into m: the first one decoded,
// the others read in place.
func (m *Part) merge(b []byte) error {
	if m.p == nil {
		pt, err := decodePart(b)
		if err == nil {
			*m = pt
		}
		return err
	}
	spec, _, wire, err := splitPart(b)
	if err != nil {
		return err
	}
	if string(spec) != m.spec {
		return check.New(check.Shape, "", "fitbeam: a part of another fit (plan %s, not %s); merge parts of one fit", spec, m.spec)
	}
	return m.p.MergeBinary(wire)
}
