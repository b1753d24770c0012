package linalg

import (
	"encoding/binary"
	"math"
	"runtime"
	"unsafe"

	"ntkrf/core/errs"
)

// Peer carries the messages of a factorization shared between two
// instances that share no memory (WebAssembly workers): Send hands one
// message to the other side, Recv waits for the next one from it. A host
// only carries the bytes; what they say is this package's.
type Peer interface {
	Send(msg []byte) error
	Recv() ([]byte, error)
}

// ShareMin is the least order of a matrix whose factorization
// CholeskyShared shares with a helper: below it the messages, the packing
// and the helper's wait while the solver factors each panel cost what
// half the trailing updates saves. Measured in the package on two
// workers (the solve stage, alone → shared): 54–68 → 71–108 ms at 1,100
// rows, 180–196 → 155–203 ms at 1,500, 447–461 → 289–325 ms at 2,000,
// 1,556–1,611 → 913–1,091 ms at 3,000.
const ShareMin = 1536

// Shares reports whether CholeskyShared shares the factorization of an
// m×m matrix with a helper.
func Shares(m int) bool { return m >= ShareMin }

// The messages of a shared factorization: a kind byte, then the fields.
// A step is S (the solver's U₁₁), R (the helper's columns of U₁₂), U (the
// solver's), then B (the helper's updated diagonal block) when the next
// panel is the helper's. (krr's helper messages, which come first, are
// H, W and K: ServeCholeskyFrom takes over at the first that is not.)
const (
	msgStart   = 'I' // solver → helper: m, then the helper's columns (rows 0 … c1 of each of its panels)
	msgStep    = 'S' // solver → helper: j0, nb, then U₁₁ (nb × nb, row-major)
	msgMine    = 'U' // solver → helper: j0, then its columns of U₁₂ (nb rows of each of its panels right of U₁₁)
	msgAbandon = 'A' // solver → helper: the factorization stopped (not positive definite)
	msgEnd     = 'D' // solver → helper: nothing more to factor; ServeCholesky returns
	msgTheirs  = 'R' // helper → solver: its columns of U₁₂, as msgMine
	msgDiag    = 'B' // helper → solver: the next diagonal block (its panel's), updated
	msgFault   = 'E' // helper → solver: the helper failed, and why
)

// helps reports whether the helper owns the panel of columns q·choleskyBlock
// … (q+1)·choleskyBlock: panels 1, 2, 5, 6, 9, 10 …, so that at every
// step the two sides' updates are about equal. A panel's update grows with
// its distance from the step's rows, and in every four panels the helper's
// two are the middle ones (the solver's the outer two) with the same sum
// of distances; taking every other panel left the solver 18 % more at
// 4,800 rows (its panels each one further out), which each step waited on.
func helps(q int) bool { return q%4 == 1 || q%4 == 2 }

func shareErr(format string, a ...any) error {
	return errs.New(errs.Internal, "", "linalg: shared factorization: "+format, a...)
}

// CholeskyShared is Cholesky with the helper at the other end of peer
// (ServeCholesky there) solving and updating its panels of columns (see
// helps) while this instance does the rest: the two halves of the m³/3
// flops at once. Every entry gets the same operations in the same
// order as in Cholesky (each panel's products summed from zero by the same
// micro-kernels and added; the tests compare the bits), so the factor is
// Cholesky's, bit for bit. Below ShareMin, or with a nil peer, it is
// Cholesky. The helper stays at peer's end for more factorizations until
// EndShare.
func CholeskyShared(a []float64, m int, peer Peer) error {
	if peer == nil || !Shares(m) {
		return Cholesky(a, m)
	}
	if m < 0 || len(a) < m*m {
		panic("linalg: Cholesky needs an m×m matrix")
	}
	sh := &shared{peer: peer}
	if err := sh.start(a, m); err != nil {
		return err
	}
	return cholesky(a, m, cholSub, sh)
}

// EndShare tells the helper at peer's end that no factorization follows:
// its ServeCholesky returns. The owner of the peer calls it once, whether
// or not a factorization was shared.
func EndShare(peer Peer) error { return peer.Send([]byte{msgEnd}) }

// shared is the solver's side of a shared factorization.
type shared struct {
	peer    Peer
	left    []float64
	right   []float64
	scratch []float64
	msg     []byte
}

// start sends the helper m and its columns as they are.
func (sh *shared) start(a []float64, m int) error {
	b := make([]byte, 0, 9+8*helperValues(m))
	b = append(b, msgStart)
	b = binary.LittleEndian.AppendUint64(b, uint64(m))
	eachPanel(m, 0, true, func(c0, c1 int) {
		for r := range c1 {
			b = appendFloats(b, a[r*m+c0:r*m+c1])
		}
	})
	return sh.peer.Send(b)
}

// diag writes the diagonal block of the panel from j0 into a when it is
// the helper's: its update of the last step made it.
func (sh *shared) diag(a []float64, m, j0 int) error {
	if sh == nil || j0 == 0 || !helps(j0/choleskyBlock) {
		return nil
	}
	b, err := sh.recv(msgDiag)
	if err != nil {
		return err
	}
	nb := min(j0+choleskyBlock, m) - j0
	if len(b) != 8*nb*nb {
		return shareErr("the helper's diagonal block at row %d is %d bytes, not %d", j0, len(b), 8*nb*nb)
	}
	for r := j0; r < j0+nb; r++ {
		b = readFloats(a[r*m+j0:r*m+j0+nb], b)
	}
	return nil
}

// begin sends the helper U₁₁ (rows j0 … j0+nb), from which it solves its
// columns of U₁₂.
func (sh *shared) begin(a []float64, m, j0, nb int) error {
	if sh == nil {
		return nil
	}
	sh.msg = append(sh.msg[:0], msgStep)
	sh.msg = binary.LittleEndian.AppendUint64(sh.msg, uint64(j0))
	sh.msg = binary.LittleEndian.AppendUint64(sh.msg, uint64(nb))
	for r := j0; r < j0+nb; r++ {
		sh.msg = appendFloats(sh.msg, a[r*m+j0:r*m+j0+nb])
	}
	return sh.peer.Send(sh.msg)
}

// exchange sends the helper this side's columns of U₁₂ (rows j0 … j0+nb)
// and writes its columns into a: both then have all of U₁₂, and a holds
// the factor's rows.
func (sh *shared) exchange(a []float64, m, j0, nb int) error {
	if sh == nil {
		return nil
	}
	j1 := j0 + nb
	sh.msg = append(sh.msg[:0], msgMine)
	sh.msg = binary.LittleEndian.AppendUint64(sh.msg, uint64(j0))
	eachPanel(m, j1, false, func(c0, c1 int) {
		for r := j0; r < j1; r++ {
			sh.msg = appendFloats(sh.msg, a[r*m+c0:r*m+c1])
		}
	})
	if err := sh.peer.Send(sh.msg); err != nil {
		return err
	}
	b, err := sh.recv(msgTheirs)
	if err != nil {
		return err
	}
	if want := 8 * nb * panelCols(m, j1, true); len(b) != want {
		return shareErr("the helper's columns of U₁₂ at row %d are %d bytes, not %d", j0, len(b), want)
	}
	eachPanel(m, j1, true, func(c0, c1 int) {
		for r := j0; r < j1; r++ {
			b = readFloats(a[r*m+c0:r*m+c1], b)
		}
	})
	return nil
}

// update subtracts U₁₂ᵀU₁₂ (panel: nb × w, columns from j1) from this
// side's panels of the trailing matrix, while the helper does its own.
func (sh *shared) update(a []float64, m, j1 int, panel []float64, nb, w int) {
	sh.left, sh.right = packTrailing(sh.left, sh.right, panel, nb, w)
	sh.scratch = grow(sh.scratch, tileR*tileC)
	eachPanel(m, j1, false, func(c0, c1 int) {
		subPanel(nb, j1, c0, c1, sh.left, sh.right, a[j1*m+c0:], m, sh.scratch)
	})
}

// recv receives the helper's next message, of kind want: its fields.
func (sh *shared) recv(want byte) ([]byte, error) {
	b, err := sh.peer.Recv()
	if err != nil {
		return nil, err
	}
	if err := fault(b, want); err != nil {
		return nil, err
	}
	return b[1:], nil
}

// eachPanel calls f with the columns c0 … c1 of each panel from column j1
// on (a multiple of choleskyBlock) that is the helper's (helper) or the
// solver's, left to right.
func eachPanel(m, j1 int, helper bool, f func(c0, c1 int)) {
	for q := j1 / choleskyBlock; q*choleskyBlock < m; q++ {
		if helps(q) == helper {
			f(q*choleskyBlock, min((q+1)*choleskyBlock, m))
		}
	}
}

// helperValues is the number of values the helper keeps of a matrix of
// order m: rows 0 … c1 of each of its panels' columns c0 … c1.
func helperValues(m int) int {
	n := 0
	eachPanel(m, 0, true, func(c0, c1 int) { n += c1 * (c1 - c0) })
	return n
}

// panelCols is the number of columns of eachPanel's panels.
func panelCols(m, j1 int, helper bool) int {
	n := 0
	eachPanel(m, j1, helper, func(c0, c1 int) { n += c1 - c0 })
	return n
}

// abandon tells the helper that this factorization stopped.
func (sh *shared) abandon() {
	if sh != nil {
		_ = sh.peer.Send([]byte{msgAbandon})
	}
}

// packTrailing packs U₁₂ (nb × w) once per step for every panel's update:
// left negated (the update subtracts), right as it is, each ⌈w/8⌉ panels
// of 8 columns and two zero panels past them (the last tile reads three).
func packTrailing(left, right, panel []float64, nb, w int) ([]float64, []float64) {
	np := (w + panelW - 1) / panelW
	n := (np + 2) * nb * panelW
	left, right = grow(left, n), grow(right, n)
	packPanels(right, panel, w, nb, 0, w, np+2, false)
	for i, v := range right {
		left[i] = -v
	}
	return left, right
}

// subPanel subtracts from the entries (r, c), j1 ≤ r ≤ c, c0 ≤ c < c1, of
// the trailing matrix the products of U₁₂'s columns r and c (packed by
// packTrailing; U₁₂'s column 0 is the matrix's column j1), where x holds
// entry (r, c) at x[(r−j1)·ldx + c−c0]: the rows above the diagonal block
// as one rectangle, the block's upper triangle as addAtA does it. Each
// entry's sum is formed from zero by the same kernel as addAtA's over the
// whole trailing matrix and then added, so its bits are the same.
func subPanel(k, j1, c0, c1 int, left, right, x []float64, ldx int, scratch []float64) {
	ps := k * panelW
	off := (c0 - j1) / panelW * ps // c0 − j1 is a multiple of choleskyBlock
	if rows := c0 - j1; rows > 0 {
		if host := rect64Host; host != nil && runtime.GOARCH == "wasm" {
			host(k, rows, c1-c0, left, ps, right[off:], x, ldx, scratch)
		} else {
			rect64(tile, k, rows, c1-c0, left, ps, right[off:], x, ldx, scratch)
		}
	}
	g := x[(c0-j1)*ldx:]
	w := c1 - c0
	if host := gram64Host; host != nil && runtime.GOARCH == "wasm" {
		host(k, w, ldx, left[off:], right[off:], g, scratch)
		return
	}
	gram64Items(tile, k, w, ldx, left[off:], right[off:], g, scratch)
}

// ServeCholesky is the helper of CholeskyShared at the other end of peer:
// it keeps its panels of columns of each factorization the solver starts
// and updates them at each step, until EndShare. It returns the error
// that stopped it, after telling the solver.
func ServeCholesky(peer Peer) error { return ServeCholeskyFrom(peer, nil) }

// ServeCholeskyFrom is ServeCholesky with first, a message already
// received from peer (by a host serving messages of its own first, as
// krr's ServeHelper), as its first message; nil means none.
func ServeCholeskyFrom(peer Peer, first []byte) error {
	var h *helper
	for {
		b := first
		first = nil
		if b == nil {
			var err error
			if b, err = peer.Recv(); err != nil {
				return err
			}
		}
		var err error
		if len(b) == 0 {
			err = shareErr("an empty message")
		} else {
			switch b[0] {
			case msgEnd:
				return nil
			case msgAbandon:
				h = nil
			case msgStart:
				h, err = newHelper(b[1:])
			case msgStep, msgMine:
				if h == nil {
					err = shareErr("a step before the factorization started")
					break
				}
				var reply []byte
				if b[0] == msgStep {
					reply, err = h.begin(b[1:])
				} else {
					reply, err = h.update(b[1:])
				}
				if err == nil && reply != nil {
					err = peer.Send(reply)
				}
			default:
				err = shareErr("an unknown message %q", b[0])
			}
		}
		if err != nil {
			SendFault(peer, err)
			return err
		}
	}
}

// SendFault tells the solver at the other end of peer that its helper
// failed, and why: its next message read (Expect) returns the error.
func SendFault(peer Peer, err error) { _ = peer.Send(append([]byte{msgFault}, err.Error()...)) }

// Expect checks a message received from the other end of a Peer: nil when
// its kind is want, the helper's error when it is a fault (SendFault),
// else an error.
func Expect(b []byte, want byte) error { return fault(b, want) }

// helper is the helper's side of one factorization: its panels of columns
// (panel q holds rows 0 … c1 of columns c0 … c1, c1 − c0 values a row),
// and the step under way.
type helper struct {
	m       int
	cols    [][]float64
	j0, nb  int  // the step's rows
	solved  bool // its columns of U₁₂ are solved; the solver's are due
	u11     []float64
	negT    []float64
	panel   []float64
	left    []float64
	right   []float64
	scratch []float64
	reply   []byte
}

func newHelper(b []byte) (*helper, error) {
	if len(b) < 8 {
		return nil, shareErr("a start of %d bytes", len(b))
	}
	m64 := binary.LittleEndian.Uint64(b)
	if m64 > math.MaxInt32 {
		return nil, shareErr("a matrix of order %d", m64)
	}
	m := int(m64)
	b = b[8:]
	if n := helperValues(m); len(b) != 8*n {
		return nil, shareErr("the columns of a matrix of order %d are %d bytes, not %d", m, len(b), 8*n)
	}
	// The columns are as large as the message that brought them.
	h := &helper{m: m, cols: make([][]float64, (m+choleskyBlock-1)/choleskyBlock)}
	eachPanel(m, 0, true, func(c0, c1 int) {
		q := c0 / choleskyBlock
		h.cols[q] = make([]float64, c1*(c1-c0))
		b = readFloats(h.cols[q], b)
	})
	return h, nil
}

// begin takes U₁₁ of the step at row j0, solves the helper's columns of
// U₁₂ and returns them.
func (h *helper) begin(b []byte) ([]byte, error) {
	if len(b) < 16 {
		return nil, shareErr("a step of %d bytes", len(b))
	}
	j0, nb := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	m := h.m
	if h.solved || j0%choleskyBlock != 0 || j0 >= uint64(m) || nb != uint64(min(int(j0)+choleskyBlock, m)-int(j0)) || int(j0)+int(nb) >= m {
		return nil, shareErr("a step at row %d of %d rows in a matrix of order %d", j0, nb, m)
	}
	h.j0, h.nb = int(j0), int(nb)
	k := h.nb
	b = b[16:]
	if len(b) != 8*k*k {
		return nil, shareErr("U₁₁ of %d×%d is %d bytes, not %d", k, k, len(b), 8*k*k)
	}
	h.u11 = grow(h.u11, k*k)
	readFloats(h.u11, b)
	h.negT = buildNegT(h.negT, h.u11, k, k, cholSub)
	j1 := h.j0 + k
	h.reply = append(h.reply[:0], msgTheirs)
	eachPanel(m, j1, true, func(c0, c1 int) {
		wq := c1 - c0
		x := h.cols[c0/choleskyBlock][h.j0*wq:]
		solveU12(h.u11, k, h.negT, k, cholSub, x, wq, wq)
		h.reply = appendFloats(h.reply, x[:k*wq])
	})
	h.solved = true
	return h.reply, nil
}

// update takes the solver's columns of U₁₂, subtracts U₁₂ᵀU₁₂ from the
// helper's panels, and returns the next diagonal block when its panel is
// the helper's (else nil).
func (h *helper) update(b []byte) ([]byte, error) {
	if !h.solved || len(b) < 8 || binary.LittleEndian.Uint64(b) != uint64(h.j0) {
		return nil, shareErr("the solver's columns of a step not begun")
	}
	h.solved = false
	m, k, j1 := h.m, h.nb, h.j0+h.nb
	w := m - j1
	b = b[8:]
	if want := 8 * k * panelCols(m, j1, false); len(b) != want {
		return nil, shareErr("the solver's columns of U₁₂ at row %d are %d bytes, not %d", h.j0, len(b), want)
	}
	// U₁₂ whole: the solver's columns from the message, the helper's from its panels.
	h.panel = grow(h.panel, k*w)
	for q := j1 / choleskyBlock; q*choleskyBlock < m; q++ {
		c0, c1 := q*choleskyBlock, min((q+1)*choleskyBlock, m)
		wq := c1 - c0
		for r := range k {
			dst := h.panel[r*w+c0-j1 : r*w+c1-j1]
			if helps(q) {
				copy(dst, h.cols[q][(h.j0+r)*wq:(h.j0+r+1)*wq])
			} else {
				b = readFloats(dst, b)
			}
		}
	}
	h.left, h.right = packTrailing(h.left, h.right, h.panel, k, w)
	h.scratch = grow(h.scratch, tileR*tileC)
	eachPanel(m, j1, true, func(c0, c1 int) {
		wq := c1 - c0
		subPanel(k, j1, c0, c1, h.left, h.right, h.cols[c0/choleskyBlock][j1*wq:], wq, h.scratch)
	})
	if !helps(j1 / choleskyBlock) {
		return nil, nil
	}
	c0, c1 := j1, min(j1+choleskyBlock, m)
	wq := c1 - c0
	h.reply = append(h.reply[:0], msgDiag)
	h.reply = appendFloats(h.reply, h.cols[c0/choleskyBlock][c0*wq:c1*wq])
	return h.reply, nil
}

// fault returns the helper's error when b is its fault message, or an
// error when b is not of the kind expected.
func fault(b []byte, want byte) error {
	switch {
	case len(b) > 0 && b[0] == want:
		return nil
	case len(b) > 0 && b[0] == msgFault:
		return shareErr("the helper failed: %s", b[1:])
	case len(b) == 0:
		return shareErr("an empty message")
	}
	return shareErr("a message %q where %q was expected", b[0], want)
}

// littleEndian: the machine stores float64 as the messages do (every
// WebAssembly host, amd64, arm64), so they are copied as memory.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// bytesOf is f's memory as bytes.
func bytesOf(f []float64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(f))), 8*len(f))
}

// appendFloats appends f to b, little-endian (one copy where the machine
// is: an element loop cost 0.1–0.2 s per factorization of order 4,826 in
// WebAssembly, on the path both sides wait on).
func appendFloats(b []byte, f []float64) []byte {
	if littleEndian {
		return append(b, bytesOf(f)...)
	}
	for _, v := range f {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// readFloats fills f from the start of b and returns the rest of b.
func readFloats(f []float64, b []byte) []byte {
	if littleEndian {
		copy(bytesOf(f), b[:8*len(f)])
		return b[8*len(f):]
	}
	for i := range f {
		f[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return b[8*len(f):]
}
