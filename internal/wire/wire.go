package wire

import (
	"encoding/binary"
	"math"
	"slices"

	"ntkrf/internal/check"
	"ntkrf/internal/rowtree"
)

// HeaderSize is the size of a form's header: the magic and the version.
const HeaderSize = 12

// AppendHeader appends the 8-byte magic and the version.
func AppendHeader(b []byte, magic string, version uint32) []byte {
	if len(magic) != 8 {
		panic("wire: a magic has 8 bytes")
	}
	return binary.LittleEndian.AppendUint32(append(b, magic...), version)
}

// AppendU32 appends v.
func AppendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// AppendU64 appends v.
func AppendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// AppendF64s appends the IEEE bits of v: b grows once and each value is
// stored in place (appending each value checked the capacity per value,
// a third of a part's encoding in WebAssembly).
func AppendF64s(b []byte, v ...float64) []byte {
	n := len(b)
	b = slices.Grow(b, 8*len(v))[:n+8*len(v)]
	out := b[n:]
	for i, x := range v {
		binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(x))
	}
	return b
}

// Reader reads a form; after the first fault every read returns zero and
// Err reports the fault.
type Reader struct {
	b    []byte
	what string // the form's name, for messages
	err  error
}

// NewReader checks the header of b: ERR_TYPE when the magic is not the
// form's, ERR_VALUE for another version.
func NewReader(b []byte, what, magic string, version uint32) (*Reader, error) {
	if len(b) < HeaderSize || string(b[:8]) != magic {
		return nil, check.New(check.Type, "", "%s: these bytes are not %s (no %q header)", pkg(what), what, magic)
	}
	if v := binary.LittleEndian.Uint32(b[8:12]); v != version {
		return nil, check.New(check.Value, "", "%s: %s of version %d; this build reads version %d", pkg(what), what, v, version)
	}
	return &Reader{b: b[HeaderSize:], what: what}, nil
}

// pkg is the package prefix of a form's messages: "data" of "data statistics".
func pkg(what string) string {
	for i, c := range what {
		if c == ' ' {
			return what[:i]
		}
	}
	return what
}

// Fail records a fault (the first one wins) and returns the Reader's error.
func (r *Reader) Fail(code check.Code, format string, a ...any) error {
	if r.err == nil {
		r.err = check.New(code, "", pkg(r.what)+": "+r.what+": "+format, a...)
	}
	return r.err
}

// Err returns the first fault.
func (r *Reader) Err() error { return r.err }

// Need checks that n values of size bytes remain, before the caller
// allocates room for them.
func (r *Reader) Need(n uint64, size int) bool {
	if r.err != nil {
		return false
	}
	if n > uint64(len(r.b))/uint64(size) {
		r.Fail(check.Shape, "%d values of %d bytes announced but %d bytes remain", n, size, len(r.b))
		return false
	}
	return true
}

func (r *Reader) take(n int) []byte {
	if !r.Need(uint64(n), 1) {
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// U8 reads a byte.
func (r *Reader) U8() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

// U32 reads a uint32.
func (r *Reader) U32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// U64 reads a uint64.
func (r *Reader) U64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// Int reads a uint64 that must be at most limit (a count, a size).
func (r *Reader) Int(name string, limit int) int {
	v := r.U64()
	if v > uint64(limit) {
		r.Fail(check.Shape, "%s %d is over %d", name, v, limit)
		return 0
	}
	return int(v)
}

// F64s fills dst with finite numbers.
func (r *Reader) F64s(name string, dst []float64) { r.f64s(name, dst, false) }

// NoInfF64s fills dst with numbers that may be NaN (a missing value of a
// raw row) but not ±Inf.
func (r *Reader) NoInfF64s(name string, dst []float64) { r.f64s(name, dst, true) }

// f64s reads len(dst) numbers; nan allows NaN among them, never ±Inf.
func (r *Reader) f64s(name string, dst []float64, nan bool) {
	b := r.take(8 * len(dst))
	if b == nil {
		clear(dst)
		return
	}
	for i := range dst {
		x := math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		if math.IsInf(x, 0) || !nan && math.IsNaN(x) {
			r.Fail(check.NonFinite, "%s[%d] is %v", name, i, x)
			clear(dst)
			return
		}
		dst[i] = x
	}
}

// F64 reads one finite number.
func (r *Reader) F64(name string) float64 {
	var v [1]float64
	r.F64s(name, v[:])
	return v[0]
}

// Done checks that every byte was read, and returns the first fault.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) != 0 {
		r.Fail(check.Shape, "%d bytes left after the end", len(r.b))
	}
	return r.err
}

// Bytes returns the next n values of size bytes as they are, for a
// caller that reads them in place.
func (r *Reader) Bytes(n uint64, size int) []byte {
	if !r.Need(n, size) {
		return nil
	}
	return r.take(int(n) * size)
}

// FiniteF64s checks that the little-endian float64 values in b are finite.
//
// It checks 64 KiB per call of a helper: WebAssembly engines optimize a
// function between calls, never inside a running one, and a part's sums
// are tens of megabytes.
func (r *Reader) FiniteF64s(name string, b []byte) {
	const span = 1 << 16
	for lo := 0; lo+8 <= len(b); lo += span {
		if i := nonFinite(b[lo:min(lo+span, len(b))]); i >= 0 {
			x := math.Float64frombits(binary.LittleEndian.Uint64(b[lo+i:]))
			r.Fail(check.NonFinite, "%s[%d] is %v", name, (lo+i)/8, x)
			return
		}
	}
}

// nonFinite returns the byte offset of the first NaN or ±Inf among the
// little-endian float64 values in b, or -1.
//
//go:noinline
func nonFinite(b []byte) int {
	for i := 0; i+8 <= len(b); i += 8 {
		if x := math.Float64frombits(binary.LittleEndian.Uint64(b[i:])); math.IsNaN(x) || math.IsInf(x, 0) {
			return i
		}
	}
	return -1
}

// AppendSet appends a set of rows: its span count, then each span's
// first row and end.
func AppendSet(b []byte, s *rowtree.Set) []byte {
	b = AppendU64(b, uint64(s.NumSpans()))
	for i := range s.NumSpans() {
		sp := s.Span(i)
		b = AppendU64(AppendU64(b, uint64(sp[0])), uint64(sp[1]))
	}
	return b
}

// Set reads a set of rows (AppendSet) of rows below end: sorted, disjoint,
// non-empty spans.
func (r *Reader) Set(name string, end int) rowtree.Set {
	n := r.Int(name+" span count", end)
	if !r.Need(uint64(n), 16) {
		return rowtree.Set{}
	}
	spans := make([][2]int, n)
	for i := range spans {
		spans[i] = [2]int{r.Int(name+" span start", end), r.Int(name+" span end", end)}
	}
	if r.err != nil {
		return rowtree.Set{}
	}
	s, err := rowtree.FromSpans(spans)
	if err != nil {
		r.Fail(check.Value, "%s: %v", name, err)
	}
	return s
}
