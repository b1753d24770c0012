//go:build amd64 && !noasm

package linalg

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestKernels32Selection checks that every x86 CPU with a float32 kernel
// gets one for AddAtA32: AVX-512 first, else AVX2 with FMA.
func TestKernels32Selection(t *testing.T) {
	t.Parallel()
	want := ""
	switch {
	case cpu.X86.HasAVX512F:
		want = "avx512"
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		want = "avx2"
	}
	got := ""
	if ks := kernels32(); len(ks) > 0 {
		got = ks[0].name
	}
	if got != want || Float32() != (want != "") {
		t.Errorf("AddAtA32 kernel %q (Float32 %v), want %q", got, Float32(), want)
	}
}
