package pipeline

import (
	"math"
	"slices"

	"ntkrf/core/krr"
	"ntkrf/internal/check"
	"ntkrf/internal/wire"
)

// The wire form of a Part: partMagic, version, then whether it collects
// (0: sums, 1: rows), its row count, the width of a row kept whole and
// their count, then their keys, targets and values, and for sums the
// accumulator's own wire form (krr), length first, and where the plan has
// a held-out rule the held-out rows' sums in the same form (version 2:
// version 1 had none, and the solve summed them).
const (
	partMagic   = "ntkrPART"
	partVersion = 2
)

// AppendBinary appends the wire form of the part to b (DecodePart and
// MergeBinary read it).
func (pt *Part) AppendBinary(b []byte) []byte {
	p := pt.plan
	mode := uint64(0)
	if p.collect {
		mode = 1
	}
	b = slices.Grow(b, pt.wireSize())
	b = wire.AppendHeader(b, partMagic, partVersion)
	for _, v := range []uint64{mode, uint64(pt.rows), uint64(p.width()), uint64(len(pt.keys))} {
		b = wire.AppendU64(b, v)
	}
	for _, k := range pt.keys {
		b = wire.AppendU64(b, k)
	}
	b = wire.AppendF64s(b, pt.y...)
	b = wire.AppendF64s(b, pt.x...)
	if pt.acc != nil {
		size := uint64(krr.WireSize(pt.acc.Dim(), max(1, p.cfg.Ridge.Classes)))
		b = wire.AppendU64(b, size)
		b = pt.acc.AppendBinary(b)
		if pt.held != nil {
			b = wire.AppendU64(b, size)
			b = pt.held.AppendBinary(b)
		}
	}
	return b
}

// wireSize is the size in bytes of the part's wire form: AppendBinary
// grows its buffer once (the held-out rows and both sums are tens of
// megabytes at m = 2048; growing by appending copied them over and over).
func (pt *Part) wireSize() int {
	n := wire.HeaderSize + 4*8 + 8*(len(pt.keys)+len(pt.y)+len(pt.x))
	if pt.acc != nil {
		size := krr.WireSize(pt.acc.Dim(), max(1, pt.plan.cfg.Ridge.Classes))
		n += 8 + size
		if pt.held != nil {
			n += 8 + size
		}
	}
	return n
}

// MarshalBinary returns the wire form of the part.
func (pt *Part) MarshalBinary() ([]byte, error) { return pt.AppendBinary(nil), nil }

// partWire is a checked wire form: the rows kept whole, decoded, and the
// accumulator's form still in place.
type partWire struct {
	rows int
	keys []uint64
	y, x []float64
	acc  []byte
	held []byte // the held-out rows' sums (nil without a held-out rule)
}

// readPart checks a part's wire form against the plan: every length before
// anything is allocated, every key a row of the plan (a held-out row one
// the rule holds), every target a target of the task.
func (p *Plan) readPart(b []byte) (*partWire, error) {
	r, err := wire.NewReader(b, "pipeline part", partMagic, partVersion)
	if err != nil {
		return nil, err
	}
	collect := r.Int("mode", 1) == 1
	w := &partWire{rows: r.Int("row count", p.rows)}
	width := r.Int("row width", math.MaxInt32)
	kept := r.Int("kept rows", w.rows)
	if r.Err() != nil {
		return nil, r.Err()
	}
	if collect != p.collect || width != p.width() || (collect && kept != w.rows) || (!collect && kept > p.cut.Rows) {
		return nil, r.Fail(check.Shape, "a part of another plan (%d of %d rows kept, %d wide)", kept, w.rows, width)
	}
	if !r.Need(uint64(kept), 16) || !r.Need(uint64(kept)*uint64(width), 8) {
		return nil, r.Err()
	}
	w.keys, w.y, w.x = make([]uint64, kept), make([]float64, kept), make([]float64, kept*width)
	for i := range w.keys {
		if w.keys[i] = r.U64(); w.keys[i] >= uint64(p.rows) || !collect && !p.cut.Holds(w.keys[i]) {
			return nil, r.Fail(check.Value, "row key %d is not a row the plan keeps whole", w.keys[i])
		}
	}
	r.F64s("y", w.y)
	r.F64s("rows", w.x)
	if r.Err() != nil {
		return nil, r.Err()
	}
	if err := checkLabels(w.y, p.cfg.Ridge, 0); err != nil {
		return nil, r.Fail(check.CodeOf(err), "%v", err)
	}
	if !collect {
		w.acc = r.Bytes(uint64(r.Int("accumulator size", math.MaxInt)), 1)
		if p.cut.Rows > 0 {
			w.held = r.Bytes(uint64(r.Int("held-out sums size", math.MaxInt)), 1)
		}
	}
	if err := r.Done(); err != nil {
		return nil, err
	}
	return w, nil
}

// DecodePart reads a part's wire form (AppendBinary) for the plan; the
// part merges and solves but adds no rows. Forms that are not a part of
// this plan, or hostile (sizes that do not add up, keys out of range,
// non-finite numbers), are refused with a coded error before anything is
// allocated for them.
func (p *Plan) DecodePart(b []byte) (*Part, error) {
	if err := p.settled(); err != nil {
		return nil, err
	}
	w, err := p.readPart(b)
	if err != nil {
		return nil, err
	}
	pt := p.emptyPart()
	if w.acc != nil {
		if pt.acc, err = krr.DecodeAccumulator(w.acc, p.cfg.Ridge); err != nil {
			return nil, err
		}
		if pt.acc.Dim() != p.width() || pt.acc.Rows()+len(w.keys) != w.rows {
			return nil, check.New(check.Shape, "", "pipeline: part: the sums of %d rows and %d features with %d rows kept out do not make its %d rows", pt.acc.Rows(), pt.acc.Dim(), len(w.keys), w.rows)
		}
	}
	if w.held != nil {
		if pt.held, err = krr.DecodeAccumulator(w.held, p.cfg.Ridge); err != nil {
			return nil, err
		}
		if pt.held.Dim() != p.width() || pt.held.Rows() != len(w.keys) {
			return nil, heldMismatch(pt.held.Rows(), len(w.keys))
		}
	}
	pt.take(w.rows, w.keys, w.y, w.x)
	return pt, nil
}

// MergeBinary merges a part's wire form into pt, as Merge would merge the
// decoded part, reading its sums in place (no second m×m matrix). Nothing
// of pt changes when b is refused.
func (pt *Part) MergeBinary(b []byte) error {
	w, err := pt.plan.readPart(b)
	if err != nil {
		return err
	}
	if err := pt.canTake(pt.plan, w.rows); err != nil {
		return err
	}
	if w.acc != nil {
		// Both forms checked before either is merged.
		n, err := pt.acc.CheckBinary(w.acc)
		if err != nil {
			return err
		}
		if n+len(w.keys) != w.rows {
			return check.New(check.Shape, "", "pipeline: part: the sums of %d rows with %d rows kept out do not make its %d rows", n, len(w.keys), w.rows)
		}
		if w.held != nil {
			if n, err = pt.held.CheckBinary(w.held); err != nil {
				return err
			}
			if n != len(w.keys) {
				return heldMismatch(n, len(w.keys))
			}
		}
		if err := pt.acc.MergeBinary(w.acc); err != nil {
			return err
		}
		if w.held != nil {
			if err := pt.held.MergeBinary(w.held); err != nil {
				return err
			}
		}
	}
	pt.take(w.rows, w.keys, w.y, w.x)
	return nil
}

func heldMismatch(sums, kept int) error {
	return check.New(check.Shape, "", "pipeline: part: the held-out sums hold %d rows but %d rows are kept out; a part sums exactly the rows it keeps out", sums, kept)
}
