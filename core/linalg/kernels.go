package linalg

// kernelSet is one implementation of the AddAtA micro-kernel and of Mul.
type kernelSet struct {
	name string
	tile tileFunc
	mul  mulFunc
}

func init() {
	k := kernels()[0]
	tile, mulGo = k.tile, k.mul
	mulRows = mulGo
	applyOnTile = k.name == "avx512" || k.name == "avx2"
}
