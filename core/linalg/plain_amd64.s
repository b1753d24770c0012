//go:build amd64 && !noasm

#include "textflag.h"
#include "mul4x8_amd64.h"

// The one-stage reduction's and Quad's vector loops in AVX, every entry
// with the portable Go code's operations in its order: a rounded multiply,
// then a rounded add or subtract, never fused. Lane k of a vector is what
// the portable loop does at index ≡ k (mod its width), so the bits are
// dotPortable's, axpyPortable's, sub2Portable's and quadColsPortable's.

// func dotPlainAVX(n int, x, y *float64) float64
// dotPortable: Y0 holds its partial sums s0…s3 (lane k sums the products
// at indices ≡ k mod 4, in increasing index), the tail goes to s0, and the
// result is (s0 + s1) + (s2 + s3).
TEXT ·dotPlainAVX(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	VXORPD Y0, Y0, Y0

dloop16:
	CMPQ CX, $16
	JLT  dloop4
	VMOVUPD 0(SI), Y1
	VMOVUPD 32(SI), Y2
	VMOVUPD 64(SI), Y3
	VMOVUPD 96(SI), Y4
	VMULPD  0(DI), Y1, Y1
	VMULPD  32(DI), Y2, Y2
	VMULPD  64(DI), Y3, Y3
	VMULPD  96(DI), Y4, Y4
	VADDPD  Y1, Y0, Y0
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y0, Y0
	VADDPD  Y4, Y0, Y0
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JMP  dloop16

dloop4:
	CMPQ CX, $4
	JLT  dtail
	VMOVUPD 0(SI), Y1
	VMULPD  0(DI), Y1, Y1
	VADDPD  Y1, Y0, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  dloop4

dtail:
	VEXTRACTF128 $1, Y0, X1 // s2, s3
	TESTQ CX, CX
	JEQ   dsum

dloop1:
	VMOVSD 0(SI), X2
	VMULSD 0(DI), X2, X2
	VADDSD X2, X0, X0 // s0 += x·y; s1 stays in the upper half of X0
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  dloop1

dsum:
	VPERMILPD $1, X0, X2
	VADDSD    X2, X0, X0 // s0 + s1
	VPERMILPD $1, X1, X3
	VADDSD    X3, X1, X1 // s2 + s3
	VADDSD    X1, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func axpyPlainAVX(n int, y, x *float64, s float64)
// axpyPortable: y[i] ← y[i] + s·x[i] for i < n.
TEXT ·axpyPlainAVX(SB), NOSPLIT, $0-32
	MOVQ n+0(FP), CX
	MOVQ y+8(FP), DI
	MOVQ x+16(FP), SI
	VBROADCASTSD s+24(FP), Y15

aloop16:
	CMPQ CX, $16
	JLT  aloop4
	VMULPD  0(SI), Y15, Y0
	VMULPD  32(SI), Y15, Y1
	VMULPD  64(SI), Y15, Y2
	VMULPD  96(SI), Y15, Y3
	VADDPD  0(DI), Y0, Y0
	VADDPD  32(DI), Y1, Y1
	VADDPD  64(DI), Y2, Y2
	VADDPD  96(DI), Y3, Y3
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JMP  aloop16

aloop4:
	CMPQ CX, $4
	JLT  atail
	VMULPD  0(SI), Y15, Y0
	VADDPD  0(DI), Y0, Y0
	VMOVUPD Y0, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  aloop4

atail:
	TESTQ CX, CX
	JEQ   adone

aloop1:
	VMULSD 0(SI), X15, X0
	VADDSD 0(DI), X0, X0
	VMOVSD X0, 0(DI)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  aloop1

adone:
	VZEROUPPER
	RET

// func sub2PlainAVX(n int, x, v, w *float64, fv, gv float64)
// sub2Portable: x[i] ← x[i] − (v[i]·f + w[i]·g) for i < n.
TEXT ·sub2PlainAVX(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), DX
	MOVQ v+16(FP), SI
	MOVQ w+24(FP), DI
	VBROADCASTSD fv+32(FP), Y14
	VBROADCASTSD gv+40(FP), Y15

sloop8:
	CMPQ CX, $8
	JLT  sloop4
	VMULPD  0(SI), Y14, Y0
	VMULPD  32(SI), Y14, Y1
	VMULPD  0(DI), Y15, Y2
	VMULPD  32(DI), Y15, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VMOVUPD 0(DX), Y4
	VMOVUPD 32(DX), Y5
	VSUBPD  Y0, Y4, Y4
	VSUBPD  Y1, Y5, Y5
	VMOVUPD Y4, 0(DX)
	VMOVUPD Y5, 32(DX)
	ADDQ $64, DX
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JMP  sloop8

sloop4:
	CMPQ CX, $4
	JLT  stail
	VMULPD  0(SI), Y14, Y0
	VMULPD  0(DI), Y15, Y2
	VADDPD  Y2, Y0, Y0
	VMOVUPD 0(DX), Y4
	VSUBPD  Y0, Y4, Y4
	VMOVUPD Y4, 0(DX)
	ADDQ $32, DX
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JMP  sloop4

stail:
	TESTQ CX, CX
	JEQ   sdone

sloop1:
	VMULSD 0(SI), X14, X0
	VMULSD 0(DI), X15, X2
	VADDSD X2, X0, X0
	VMOVSD 0(DX), X4
	VSUBSD X0, X4, X4
	VMOVSD X4, 0(DX)
	ADDQ $8, DX
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  sloop1

sdone:
	VZEROUPPER
	RET

// func quad16AVX(m int, x *float64, rs int, mult, inv *float64, acc *[16]float64)
// One λ's sweep of Quad down 16 adjacent columns from x (rows rs bytes
// apart), m ≥ 1 rows: z ← x₀, acc ← (z·z)·inv₀, then for each row j
// z ← xⱼ − mult_{j−1}·z, acc ← acc + (z·z)·invⱼ. Y0–Y3 hold z, Y4–Y7 acc.
TEXT ·quad16AVX(SB), NOSPLIT, $0-48
	MOVQ m+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ rs+16(FP), DX
	MOVQ mult+24(FP), R8
	MOVQ inv+32(FP), R9
	VBROADCASTSD 0(R9), Y15
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD 96(SI), Y3
	VMULPD  Y0, Y0, Y4
	VMULPD  Y1, Y1, Y5
	VMULPD  Y2, Y2, Y6
	VMULPD  Y3, Y3, Y7
	VMULPD  Y15, Y4, Y4
	VMULPD  Y15, Y5, Y5
	VMULPD  Y15, Y6, Y6
	VMULPD  Y15, Y7, Y7
	DECQ CX
	JEQ  q16done

q16loop:
	ADDQ DX, SI
	ADDQ $8, R9
	VBROADCASTSD 0(R8), Y14 // mult_{j−1}
	VBROADCASTSD 0(R9), Y15 // inv_j
	ADDQ $8, R8
	VMULPD  Y0, Y14, Y8
	VMULPD  Y1, Y14, Y9
	VMULPD  Y2, Y14, Y10
	VMULPD  Y3, Y14, Y11
	VMOVUPD 0(SI), Y0
	VMOVUPD 32(SI), Y1
	VMOVUPD 64(SI), Y2
	VMOVUPD 96(SI), Y3
	VSUBPD  Y8, Y0, Y0
	VSUBPD  Y9, Y1, Y1
	VSUBPD  Y10, Y2, Y2
	VSUBPD  Y11, Y3, Y3
	VMULPD  Y0, Y0, Y8
	VMULPD  Y1, Y1, Y9
	VMULPD  Y2, Y2, Y10
	VMULPD  Y3, Y3, Y11
	VMULPD  Y15, Y8, Y8
	VMULPD  Y15, Y9, Y9
	VMULPD  Y15, Y10, Y10
	VMULPD  Y15, Y11, Y11
	VADDPD  Y8, Y4, Y4
	VADDPD  Y9, Y5, Y5
	VADDPD  Y10, Y6, Y6
	VADDPD  Y11, Y7, Y7
	DECQ CX
	JNZ  q16loop

q16done:
	MOVQ acc+40(FP), DI
	VMOVUPD Y4, 0(DI)
	VMOVUPD Y5, 32(DI)
	VMOVUPD Y6, 64(DI)
	VMOVUPD Y7, 96(DI)
	VZEROUPPER
	RET

// func quad4AVX(m int, x *float64, rs int, mult, inv *float64, acc *[4]float64)
// quad16AVX for 4 columns.
TEXT ·quad4AVX(SB), NOSPLIT, $0-48
	MOVQ m+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ rs+16(FP), DX
	MOVQ mult+24(FP), R8
	MOVQ inv+32(FP), R9
	VBROADCASTSD 0(R9), Y15
	VMOVUPD 0(SI), Y0
	VMULPD  Y0, Y0, Y4
	VMULPD  Y15, Y4, Y4
	DECQ CX
	JEQ  q4done

q4loop:
	ADDQ DX, SI
	ADDQ $8, R9
	VBROADCASTSD 0(R8), Y14
	VBROADCASTSD 0(R9), Y15
	ADDQ $8, R8
	VMULPD  Y0, Y14, Y8
	VMOVUPD 0(SI), Y0
	VSUBPD  Y8, Y0, Y0
	VMULPD  Y0, Y0, Y8
	VMULPD  Y15, Y8, Y8
	VADDPD  Y8, Y4, Y4
	DECQ CX
	JNZ  q4loop

q4done:
	MOVQ acc+40(FP), DI
	VMOVUPD Y4, 0(DI)
	VZEROUPPER
	RET

// func mul4x8MaskAVX(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, add bool, mask *[8]int64)
// mul4x8AVX2 (kernel_amd64.s) on the columns whose mask entry is −1: the
// same multiplies and adds per entry, in increasing l; the other columns
// of b and c are neither read nor written (VMASKMOVPD), so the last
// m mod 8 columns of a product need no scalar loop.
TEXT ·mul4x8MaskAVX(SB), NOSPLIT, $0-72
	MUL4X8ARGS
	MOVQ mask+64(FP), AX
	VMOVDQU 0(AX), Y13
	VMOVDQU 32(AX), Y14
	MOVBLZX add+56(FP), AX
	TESTL AX, AX
	JNZ mloadc
	MUL4X8ZERO
	JMP mstart

mloadc:
	MOVQ DX, AX
	VMASKMOVPD 0(AX), Y13, Y0
	VMASKMOVPD 32(AX), Y14, Y1
	ADDQ R10, AX
	VMASKMOVPD 0(AX), Y13, Y2
	VMASKMOVPD 32(AX), Y14, Y3
	ADDQ R10, AX
	VMASKMOVPD 0(AX), Y13, Y4
	VMASKMOVPD 32(AX), Y14, Y5
	ADDQ R10, AX
	VMASKMOVPD 0(AX), Y13, Y6
	VMASKMOVPD 32(AX), Y14, Y7

mstart:
	TESTQ CX, CX
	JZ    mstore

mloop:
	VMASKMOVPD 0(DI), Y13, Y8
	VMASKMOVPD 32(DI), Y14, Y9
	MUL4X8STEP
	MUL4X8NEXT
	DECQ CX
	JNZ  mloop

mstore:
	VMASKMOVPD Y0, Y13, 0(DX)
	VMASKMOVPD Y1, Y14, 32(DX)
	ADDQ R10, DX
	VMASKMOVPD Y2, Y13, 0(DX)
	VMASKMOVPD Y3, Y14, 32(DX)
	ADDQ R10, DX
	VMASKMOVPD Y4, Y13, 0(DX)
	VMASKMOVPD Y5, Y14, 32(DX)
	ADDQ R10, DX
	VMASKMOVPD Y6, Y13, 0(DX)
	VMASKMOVPD Y7, Y14, 32(DX)
	VZEROUPPER
	RET
