package jsbridge

import (
	"runtime"
	"sync"
	"unsafe"

	"ntkrf/core/protocol"
	"ntkrf/internal/check"
)

// Kept parts: a fit's parts may stay in the instance that made them. The
// part of 5,000 rows at m = 2048 is about 80 MB of sums (the kept and the
// held-out rows', per node of the row tree); encoded, copied out to
// JavaScript, copied into the solving instance and decoded there, it cost
// the standard job about 0.4 s and that instance as many megabytes of
// fresh memory again. So fitPart given keep (a fit's number, unique per
// engine) merges its part into the one this instance keeps for that fit
// and answers only how many rows it holds; the scheduler solves on the
// instance that keeps the most rows (fitSolve given keep starts from its
// kept part) and has the others send theirs (fitShip). fitDrop forgets a
// fit's part (a fit that failed or was cancelled between its steps). The
// bits do not change: parts merge in any order into the same sums
// (protocol.Part.Merge).
var kept = struct {
	sync.Mutex
	parts map[int]*protocol.Part
}{parts: map[int]*protocol.Part{}}

// maxKeptFits bounds the fits whose parts one instance keeps at once: a
// scheduler that never solves nor drops its fits is told, instead of the
// instance filling its memory with sums nobody will read. (fit.js keeps
// one per fitRidge call in flight on the engine.)
const maxKeptFits = 64

// keepPart merges pt into the part this instance keeps for fit, or keeps
// pt as that part, and returns the rows the kept part holds. A refused
// merge (rows held twice, another plan) changes nothing.
func keepPart(op string, fit int, pt *protocol.Part) (int, error) {
	if err := fitNumber(op, fit); err != nil {
		return 0, err
	}
	// Kept with its sums only: a part's scratch (spare sums, block
	// buffers) is as large as its sums, and merging siblings frees more.
	// That garbage, and the merged part's copy, are collected once the
	// part is kept (after the lock): an instance's memory never shrinks,
	// and this call moves too few bytes for the bridge's collection after
	// large calls (bridge_js.go).
	defer runtime.GC()
	kept.Lock()
	defer kept.Unlock()
	if have := kept.parts[fit]; have != nil {
		if err := have.Merge(pt); err != nil {
			return 0, err
		}
		have.Compact()
		return have.Rows(), nil
	}
	if len(kept.parts) >= maxKeptFits {
		return 0, check.New(check.TooLarge, "keep", "%s: this instance keeps the parts of %d fits already; solve (fitSolve) or drop (fitDrop) them before keeping more", op, maxKeptFits)
	}
	pt.Compact()
	kept.parts[fit] = pt
	return pt.Rows(), nil
}

// takePart removes and returns the part this instance keeps for fit.
func takePart(op string, fit int) (*protocol.Part, error) {
	if err := fitNumber(op, fit); err != nil {
		return nil, err
	}
	pt := removeKept(fit)
	if pt == nil {
		return nil, check.New(check.Protocol, "keep", "%s: this instance keeps no part of fit %d (it was sent, solved or dropped, or the instance restarted); make the fit's parts again", op, fit)
	}
	return pt, nil
}

// removeKept removes and returns the part this instance keeps for fit
// (nil: none).
func removeKept(fit int) *protocol.Part {
	kept.Lock()
	defer kept.Unlock()
	pt := kept.parts[fit]
	delete(kept.parts, fit)
	return pt
}

func fitNumber(op string, fit int) error {
	if fit <= 0 {
		return typeErr("%s: keep must be a fit's number, a positive integer, got %d", op, fit)
	}
	return nil
}

// opFitShip sends the part this instance keeps for a fit (its wire form)
// and forgets it: the solving instance merges it (fitSolve's parts).
func opFitShip(c *call, args []byte) (any, error) {
	var a struct {
		Keep int `json:"keep"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	pt, err := takePart(c.op, a.Keep)
	if err != nil {
		return nil, err
	}
	return struct {
		Part WireRef `json:"part"`
	}{c.putWire(pt.AppendBinary(nil))}, nil
}

// opFitDrop forgets the part this instance keeps for a fit, if any.
func opFitDrop(c *call, args []byte) (any, error) {
	var a struct {
		Keep int `json:"keep"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	if err := fitNumber(c.op, a.Keep); err != nil {
		return nil, err
	}
	return struct {
		Dropped bool `json:"dropped"`
	}{removeKept(a.Keep) != nil}, nil
}

// floatsOf returns b, padded with zeros to a multiple of 8 bytes, as
// float64s without a copy where its memory is 8-byte aligned (Go's
// allocator aligns every allocation of 8 bytes or more so), else as a
// copy. A part's wire form is tens of MB: the copy was as much fresh
// memory again.
func floatsOf(b []byte) []float64 {
	if pad := (8 - len(b)%8) % 8; pad > 0 {
		b = append(b, make([]byte, pad)...)
	}
	if len(b) == 0 {
		return nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%8 != 0 {
		f := make([]float64, len(b)/8)
		copy(bytesOf(f), b)
		return f
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), len(b)/8)
}
