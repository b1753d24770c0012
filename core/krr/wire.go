package krr

import (
	"encoding/binary"
	"math"

	"ntkrf/internal/check"
	"ntkrf/internal/wire"
)

// The wire form of an Accumulator: accMagic, version, then the task (0
// regression, 1 classification), m, k and the row count, then μ (m), ȳ
// (k), the upper triangle of C row by row (row i from the diagonal on:
// m(m+1)/2 values), D (m×k) and E (k), as little-endian float64.
const (
	accMagic   = "ntkrACCU"
	accVersion = 1
	// maxWireDim bounds m in a header before anything else is computed
	// from it (check.Alloc then bounds the m×m matrix itself).
	maxWireDim = 1 << 20
)

// WireSize is the size in bytes of the wire form of an accumulator of m
// features and k outputs.
func WireSize(m, k int) int {
	return wire.HeaderSize + 4*8 + 8*(m+k+m*(m+1)/2+m*k+k)
}

// AppendBinary appends the wire form of a to b, straight from its sums
// (the upper triangle of C, no m×m copy). DecodeAccumulator and
// MergeBinary read it.
func (a *Accumulator) AppendBinary(b []byte) []byte {
	b = growBytes(b, WireSize(a.m, a.k))
	b = wire.AppendHeader(b, accMagic, accVersion)
	task := uint64(0)
	if a.opt.Task == Classification {
		task = 1
	}
	for _, v := range []uint64{task, uint64(a.m), uint64(a.k), uint64(a.n)} {
		b = wire.AppendU64(b, v)
	}
	b = wire.AppendF64s(b, a.mu...)
	b = wire.AppendF64s(b, a.ybar...)
	for i := range a.m {
		b = wire.AppendF64s(b, a.c[i*a.m+i:(i+1)*a.m]...)
	}
	b = wire.AppendF64s(b, a.d...)
	return wire.AppendF64s(b, a.e...)
}

// MarshalBinary returns the wire form of a.
func (a *Accumulator) MarshalBinary() ([]byte, error) { return a.AppendBinary(nil), nil }

func growBytes(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	out := make([]byte, len(b), len(b)+n)
	copy(out, b)
	return out
}

// accWire is a checked wire form, its arrays still in b.
type accWire struct {
	task    Task
	m, k, n int
	mu, ybr []float64
	d, e    []float64
	c       []byte // the upper triangle, checked finite
}

// readAcc checks a wire form: its header, every length before anything is
// allocated, and every number finite.
func readAcc(b []byte) (*accWire, error) {
	r, err := wire.NewReader(b, "krr accumulator", accMagic, accVersion)
	if err != nil {
		return nil, err
	}
	w := &accWire{task: Regression}
	if r.Int("task", 1) == 1 {
		w.task = Classification
	}
	w.m = r.Int("feature dimension", maxWireDim)
	w.k = r.Int("outputs", MaxClasses)
	w.n = r.Int("row count", math.MaxInt64)
	if r.Err() != nil {
		return nil, r.Err()
	}
	switch {
	case w.m < 1:
		return nil, r.Fail(check.Shape, "feature dimension 0")
	case w.task == Regression && w.k != 1, w.task == Classification && w.k < 1:
		return nil, r.Fail(check.Value, "%d outputs for a %s", w.k, w.task)
	}
	if err := check.Alloc("Gram matrix ΦᵀΦ", w.m, w.m); err != nil {
		return nil, wrap(err)
	}
	if want := WireSize(w.m, w.k); len(b) != want {
		return nil, r.Fail(check.Shape, "%d bytes, but %d features and %d outputs take %d", len(b), w.m, w.k, want)
	}
	w.mu, w.ybr = make([]float64, w.m), make([]float64, w.k)
	w.d, w.e = make([]float64, w.m*w.k), make([]float64, w.k)
	r.F64s("mu", w.mu)
	r.F64s("ybar", w.ybr)
	w.c = r.Bytes(uint64(w.m)*uint64(w.m+1)/2, 8)
	r.FiniteF64s("C", w.c)
	r.F64s("D", w.d)
	r.F64s("E", w.e)
	if err := r.Done(); err != nil {
		return nil, err
	}
	for _, v := range w.e {
		if v < 0 {
			return nil, r.Fail(check.Value, "a sum of squares is negative")
		}
	}
	return w, nil
}

// row returns row i of the wire form's C from the diagonal on, decoded
// into buf.
func (w *accWire) row(buf []float64) func(i int) []float64 {
	return func(i int) []float64 {
		// Row i starts after rows 0…i−1, of m, m−1, … values.
		at := 8 * (i*w.m - i*(i-1)/2)
		out := buf[:w.m-i]
		for j := range out {
			out[j] = math.Float64frombits(binary.LittleEndian.Uint64(w.c[at+8*j:]))
		}
		return out
	}
}

// DecodeAccumulator reads an accumulator's wire form (AppendBinary) into a
// new accumulator with the options opt, whose task and classes must be
// unset or the form's. Every length is checked before anything is
// allocated; a form that is not one, of another version, of impossible
// sizes or with non-finite numbers is refused with a coded error.
func DecodeAccumulator(b []byte, opt Options) (*Accumulator, error) {
	w, err := readAcc(b)
	if err != nil {
		return nil, err
	}
	if opt, err = w.options(opt); err != nil {
		return nil, err
	}
	a, err := NewAccumulator(w.m, opt)
	if err != nil {
		return nil, err
	}
	// Copied, not merged into the empty accumulator: the bits as sent.
	a.n = w.n
	copy(a.mu, w.mu)
	copy(a.ybar, w.ybr)
	copy(a.d, w.d)
	copy(a.e, w.e)
	row := w.row(a.bmu)
	for i := range a.m {
		copy(a.c[i*a.m+i:(i+1)*a.m], row(i))
	}
	return a, nil
}

// options fills opt's task and classes from the form, or checks them.
func (w *accWire) options(opt Options) (Options, error) {
	classes := 0
	if w.task == Classification {
		classes = w.k
	}
	if (opt.Task != "" && opt.Task != w.task) || (opt.Classes != 0 && opt.Classes != classes) {
		return opt, check.New(check.Value, "", "krr: the accumulator is a %s of %d outputs, not the %s of %d classes asked for; merge parts of one fit", w.task, w.k, opt.Task, opt.Classes)
	}
	opt.Task, opt.Classes = w.task, classes
	return opt, nil
}

// MergeBinary merges an accumulator's wire form into a, as Merge would
// merge the accumulator: read in place, without decoding its m×m C first.
// Nothing of a changes when b is refused.
func (a *Accumulator) MergeBinary(b []byte) error {
	w, err := a.readFor(b)
	if err != nil {
		return err
	}
	a.mergeWire(w)
	return nil
}

// mergeWire merges a form readFor checked.
func (a *Accumulator) mergeWire(w *accWire) {
	if w.n > 0 {
		a.mergeMoments(w.n, w.mu, w.ybr, w.row(make([]float64, w.m)), w.d, w.e)
	}
}

// readFor checks that b is a wire form that a can merge.
func (a *Accumulator) readFor(b []byte) (*accWire, error) {
	w, err := readAcc(b)
	if err != nil {
		return nil, err
	}
	if w.m != a.m || w.k != a.k || w.task != a.opt.Task {
		return nil, check.New(check.Shape, "", "krr: cannot merge an accumulator of %d features and %d outputs (%s) into one of %d features and %d outputs (%s); merge parts of one fit",
			w.m, w.k, w.task, a.m, a.k, a.opt.Task)
	}
	if a.n > math.MaxInt-w.n {
		return nil, check.New(check.TooLarge, "", "krr: %d + %d rows overflow the row count", a.n, w.n)
	}
	return w, nil
}

// Configure replaces a's options with opt, which must keep its task and
// classes: a host that merged parts solves with its own λ, criterion,
// grid, progress and context.
func (a *Accumulator) Configure(opt Options) error {
	opt, err := opt.checked(nil, false)
	if err != nil {
		return err
	}
	if opt.Task != a.opt.Task || opt.outputs() != a.k {
		return check.New(check.Option, "task", "krr: options of a %s with %d outputs for an accumulator of a %s with %d; keep the task and classes", opt.Task, opt.outputs(), a.opt.Task, a.k)
	}
	a.opt = opt
	return nil
}

// CheckBinary checks that b is a wire form that a's MergeBinary takes
// (the form sound, the same features, outputs and task) and returns its
// row count, so that a caller merging several forms checks all of them
// before merging any.
func (a *Accumulator) CheckBinary(b []byte) (int, error) {
	w, err := a.readFor(b)
	if err != nil {
		return 0, err
	}
	return w.n, nil
}
