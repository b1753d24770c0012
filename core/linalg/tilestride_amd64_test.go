//go:build amd64 && !noasm

package linalg

// packedTwin is the packed tile kernel whose bits the in-place kernel
// named name must give: tileAVX2 for the assembly, tilePortable for the
// reference (to rounding).
func packedTwin(name string) tileFunc {
	if name == "asm" {
		return tileAVX2
	}
	return tilePortable
}
