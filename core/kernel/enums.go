package kernel

import "ntkrf/core/names"

// Name names an exact kernel (Spec.Name); its JSON form is the name. The
// zero value means NameNTK.
type Name string

// The kernels, in the order of Names.
const (
	NameNTK    Name = names.NTK    // the Neural Tangent Kernel (NTK)
	NameNNGP   Name = names.NNGP   // the NNGP kernel (NNGP)
	NameRBF    Name = names.RBF    // exp(−γ‖x−z‖²) (RBF)
	NameLinear Name = names.Linear // XZᵀ, the NTK and NNGP of depth 0
)

// Names returns the kernels a Spec can name, the default first, in a new
// slice.
func Names() []Name { return []Name{NameNTK, NameNNGP, NameRBF, NameLinear} }
