package krr

import (
	"encoding/json"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
	"ntkrf/internal/wire"
)

// A solve's helper (Options.Helper) first sums the held-out rows while the
// solver searches λ on the kept rows (SolveHeldOut), then shares the
// factorization (linalg.ServeCholesky). The held-out rows' ΦᵀΦ is a fifth
// of a part's Gram flops, summed per leaf it also cost a part two m×m
// sums per leaf and the solver a merge; summed once from the held-out
// rows' features, which the solve has anyway, it costs one instance
// r·m² flops, and on the helper those run beside the search.
//
// The messages, a kind byte first (linalg's kinds are other letters):
const (
	msgHeld = 'H' // solver → helper: the held-out rows, as heldMagic's form
	msgWant = 'W' // solver → helper: send the rows' sums
	msgSums = 'K' // helper → solver: the sums, an Accumulator's wire form
)

// The held-out rows' form: heldMagic, version, the accumulator's options
// (JSON, length first: the task, classes and Gram arithmetic, all the sums
// depend on), the row count and m, then Φ (rows × m) and y.
const (
	heldMagic   = "ntkrHELD"
	heldVersion = 1
)

// heldHelpMin is the least r·m² (multiply-adds) of r held-out rows of m
// features for which a helper sums them (HelpsHeld): about 20 ms of
// WebAssembly's Gram kernel, well over the messages' cost (the rows
// there, the m×m sums back).
const heldHelpMin = 1 << 26

// HelpsHeld reports whether a solve's helper sums r held-out rows of m
// features while the solver searches λ: when r·m² is heldHelpMin or more.
func HelpsHeld(r, m int) bool {
	return r > 0 && m > 0 && float64(r)*float64(m)*float64(m) >= heldHelpMin
}

// heldOptions are the options the held-out rows are summed with: only
// what Add depends on, so that both ends build the same accumulator.
func heldOptions(opt Options) Options {
	return Options{Task: opt.Task, Classes: opt.Classes, Gram: opt.Gram}
}

// heldSums are the sums of the held-out rows Phi, y: a fresh
// accumulator's, so that they are the same bits whichever instance
// summed them, then merged into the kept rows' sums.
func heldSums(m int, opt Options, Phi *mat.Dense, y []float64) (*Accumulator, error) {
	h, err := NewAccumulator(m, heldOptions(opt))
	if err != nil {
		return nil, err
	}
	if r, _ := Phi.Dims(); r > 0 {
		if err := h.addRows(Phi, y); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// pendingHeld are the held-out rows' sums under way: on the helper when
// one took them, else summed here when asked.
type pendingHeld struct {
	acc    *Accumulator
	phi    *mat.Dense
	y      []float64
	helper linalg.Peer // nil: sum here
}

// sendHeld hands the held-out rows to a's helper, if any, to sum while a
// searches.
func (a *Accumulator) sendHeld(Phi *mat.Dense, y []float64) (*pendingHeld, error) {
	p := &pendingHeld{acc: a, phi: Phi, y: y}
	r, _ := Phi.Dims()
	if a.opt.Helper == nil || r == 0 {
		return p, nil
	}
	opts, err := json.Marshal(heldOptions(a.opt))
	if err != nil {
		return nil, check.New(check.Internal, "", "krr: held-out rows: %v", err)
	}
	b := make([]byte, 0, 1+wire.HeaderSize+8*(3+r*a.m+r)+len(opts))
	b = append(b, msgHeld)
	b = wire.AppendHeader(b, heldMagic, heldVersion)
	b = wire.AppendU64(b, uint64(len(opts)))
	b = append(b, opts...)
	b = wire.AppendU64(wire.AppendU64(b, uint64(r)), uint64(a.m))
	raw := Phi.RawMatrix()
	for i := range r {
		b = wire.AppendF64s(b, raw.Data[i*raw.Stride:i*raw.Stride+a.m]...)
	}
	b = wire.AppendF64s(b, y...)
	if err := a.opt.Helper.Send(b); err != nil {
		return nil, err
	}
	p.helper = a.opt.Helper
	return p, nil
}

// mergeHeld sums the held-out rows Phi, y here and merges them into a.
func (a *Accumulator) mergeHeld(Phi *mat.Dense, y []float64) error {
	h, err := heldSums(a.m, a.opt, Phi, y)
	if err != nil {
		return err
	}
	return a.Merge(h)
}

// merge adds the held-out rows' sums to the kept rows': the helper's, or
// summed here.
func (p *pendingHeld) merge() error {
	a := p.acc
	if p.helper == nil {
		return a.mergeHeld(p.phi, p.y)
	}
	if err := p.helper.Send([]byte{msgWant}); err != nil {
		return err
	}
	b, err := p.helper.Recv()
	if err != nil {
		return err
	}
	if err := linalg.Expect(b, msgSums); err != nil {
		return err
	}
	w, err := a.readFor(b[1:]) // the form checked once, then merged
	if err != nil {
		return err
	}
	if r, _ := p.phi.Dims(); w.n != r {
		return check.New(check.Internal, "", "krr: the helper summed %d held-out rows, not %d", w.n, r)
	}
	a.mergeWire(w)
	return nil
}

// ServeHelper is the helper of a solve given this end's peer as
// Options.Helper: it sums the held-out rows the solver sends and sends the
// sums when asked, then serves the shared factorization
// (linalg.ServeCholesky) until the solver ends it (linalg.EndShare). It
// returns the error that stopped it, after telling the solver.
func ServeHelper(peer linalg.Peer) error {
	var sums []byte
	for {
		b, err := peer.Recv()
		if err != nil {
			return err
		}
		switch {
		case len(b) == 0:
			err = check.New(check.Protocol, "", "krr: helper: an empty message")
		case b[0] == msgHeld:
			var h *Accumulator
			if h, err = readHeld(b[1:]); err == nil {
				sums = h.AppendBinary([]byte{msgSums})
			}
		case b[0] == msgWant:
			if sums == nil {
				err = check.New(check.Protocol, "", "krr: helper: asked for sums before the held-out rows")
				break
			}
			err = peer.Send(sums)
			sums = nil
		default:
			return linalg.ServeCholeskyFrom(peer, b)
		}
		if err != nil {
			linalg.SendFault(peer, err)
			return err
		}
	}
}

// readHeld reads the held-out rows' form and sums them.
func readHeld(b []byte) (*Accumulator, error) {
	r, err := wire.NewReader(b, "held-out rows", heldMagic, heldVersion)
	if err != nil {
		return nil, err
	}
	var opt Options
	nj := r.Int("options length", 1<<12)
	if r.Err() != nil {
		return nil, r.Err()
	}
	if err := json.Unmarshal(r.Bytes(uint64(nj), 1), &opt); err != nil {
		return nil, r.Fail(check.Value, "the options: %v", err)
	}
	rows := r.Int("rows", MaxHoldoutRows)
	m := r.Int("features", maxWireDim)
	if r.Err() != nil {
		return nil, r.Err()
	}
	if rows < 1 || m < 1 {
		return nil, r.Fail(check.Shape, "%d rows of %d features; send at least one row", rows, m)
	}
	if !r.Need(uint64(rows)*uint64(m+1), 8) {
		return nil, r.Err()
	}
	Phi := mat.NewDense(rows, m, nil)
	r.F64s("Φ", Phi.RawMatrix().Data)
	y := make([]float64, rows)
	r.F64s("y", y)
	if err := r.Done(); err != nil {
		return nil, err
	}
	return heldSums(m, opt, Phi, y)
}
