package fitbeam

import (
	"sync/atomic"

	"ntkrf/core/protocol"
)

// Parts travel between workers as bytes (their form, encodePart), not as
// a type with a coder: the SDK encodes the first elements of every
// collection again only to estimate their sizes, which for a part of
// m = 4096 is 67 MB each time, while bytes it only counts. A worker
// decodes the first part it merges and merges the others from their
// bytes in place (protocol.Part.MergeBinary: no second m×m matrix).

// Part is a protocol.Part with what the solve needs besides the sums:
// the settled data set, its plan's bytes among it, and the merged
// statistics (nil p: no rows yet).
type Part struct {
	of Shard // no path, no row keys
	p  *protocol.Part
}

// partBytes counts the bytes of the parts this process sent to be
// merged: the merge's traffic (the benchmark reads it).
var partBytes atomic.Int64

// send emits a part's form under a merge key.
func send(emit func(int, []byte), key int, b []byte) {
	partBytes.Add(int64(len(b)))
	emit(key, b)
}

// A part's form: its Shard's form, length first, then the core's wire
// form of the part (protocol.Part.AppendBinary), which names its plan by
// digest.
func encodePart(p Part) ([]byte, error) {
	of, err := encodeShard(p.of)
	if err != nil {
		return nil, err
	}
	return p.p.AppendBinary(appendField(nil, of)), nil
}

func decodePart(b []byte) (Part, error) {
	of, wire, err := field(b, "part's data set")
	if err != nil {
		return Part{}, err
	}
	var pt Part
	if pt.of, err = decodeShard(of); err != nil {
		return Part{}, err
	}
	plan, err := pt.of.Settled.plan()
	if err != nil {
		return Part{}, err
	}
	pt.p, err = plan.DecodePart(wire)
	return pt, err
}

// merge merges the part whose form is b into m: the first one decoded,
// the others read in place (the core refuses a part of another plan,
// ERR_PROTOCOL).
func (m *Part) merge(b []byte) error {
	if m.p == nil {
		pt, err := decodePart(b)
		if err == nil {
			*m = pt
		}
		return err
	}
	_, wire, err := field(b, "part's data set")
	if err != nil {
		return err
	}
	return m.p.MergeBinary(wire)
}
