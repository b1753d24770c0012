package pipeline

import (
	"crypto/sha256"

	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
)

// digestForm is what identifies a plan: its settled Config whole (every
// field but the progress reporter, so that a setting added to Config is
// in the digest without a word here), and what settling made of it. A plan
// rebuilt from Config(), Rows() and Cols() on another worker or host has
// the same form.
type digestForm struct {
	Form       int
	Rows, Cols int
	Config     Config
	Collect    bool
	Cut        krr.HoldoutCut
	Dim        int
	Map        *rf.Config   // resolved, primal
	Kernel     *kernel.Spec // filled
	Open       bool
	Selection  *Selection `json:",omitempty"` // what settled an open plan
}

// digestFormVersion changes whenever digestForm or what a part holds
// changes meaning.
const digestFormVersion = 3

// Digest identifies the plan: the SHA-256 of its settings (the task,
// classes, preprocessing, feature map or kernel with its seed, λ's rule,
// the held-out cut, the rows and columns). Parts and statistics carry it,
// and a part of another plan is refused (ERR_PROTOCOL).
func (p *fitPlan) Digest() [32]byte { return p.digest }

func (p *fitPlan) computeDigest() [32]byte { return sha256.Sum256(p.form()) }

// chosenBy is the settled plan p with the selection that chose it: the
// selection is part of the plan (its digest, its wire form), so that a
// host hands on one value and the model keeps what settled it.
func (p *fitPlan) chosenBy(sel *Selection) *fitPlan {
	q := *p
	q.sel = sel
	q.digest = q.computeDigest()
	return &q
}
