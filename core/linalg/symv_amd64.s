//go:build amd64 && !noasm

#include "textflag.h"

// DOTAXPY runs the loops of dotAxpyAVX2 over CX entries (a multiple of 4)
// of a (SI), x (DI) and y (DX), s broadcast in Y15: y += s·a, and the dot
// product a·x in the partial sums Y0–Y3, reduced to X0. Both functions
// below expand it, so symvRowsFMA's row sums are dotAxpyAVX2's bits.
// L16, L4 and SUM name its labels (labels are per function).
#define DOTAXPY(L16, L4, SUM) \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
L16: \
	CMPQ CX, $16 \
	JLT  L4 \
	VMOVUPD 0(SI), Y4 \
	VMOVUPD 32(SI), Y5 \
	VMOVUPD 64(SI), Y6 \
	VMOVUPD 96(SI), Y7 \
	VFMADD231PD 0(DI), Y4, Y0 \
	VFMADD231PD 32(DI), Y5, Y1 \
	VFMADD231PD 64(DI), Y6, Y2 \
	VFMADD231PD 96(DI), Y7, Y3 \
	VMOVUPD 0(DX), Y8 \
	VMOVUPD 32(DX), Y9 \
	VMOVUPD 64(DX), Y10 \
	VMOVUPD 96(DX), Y11 \
	VFMADD231PD Y15, Y4, Y8 \
	VFMADD231PD Y15, Y5, Y9 \
	VFMADD231PD Y15, Y6, Y10 \
	VFMADD231PD Y15, Y7, Y11 \
	VMOVUPD Y8, 0(DX) \
	VMOVUPD Y9, 32(DX) \
	VMOVUPD Y10, 64(DX) \
	VMOVUPD Y11, 96(DX) \
	ADDQ $128, SI \
	ADDQ $128, DI \
	ADDQ $128, DX \
	SUBQ $16, CX \
	JMP  L16 \
L4: \
	CMPQ CX, $4 \
	JLT  SUM \
	VMOVUPD 0(SI), Y4 \
	VFMADD231PD 0(DI), Y4, Y0 \
	VMOVUPD 0(DX), Y8 \
	VFMADD231PD Y15, Y4, Y8 \
	VMOVUPD Y8, 0(DX) \
	ADDQ $32, SI \
	ADDQ $32, DI \
	ADDQ $32, DX \
	SUBQ $4, CX \
	JMP  L4 \
SUM: \
	VADDPD Y1, Y0, Y0 \
	VADDPD Y3, Y2, Y2 \
	VADDPD Y2, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPD X1, X0, X0 \
	VPERMILPD $1, X0, X1 \
	VADDSD X1, X0, X0

// func dotAxpyAVX2(n int, y, a, x *float64, s float64) float64
// y[i] += s·a[i], returns Σ a[i]·x[i], for i < n, n a multiple of 4.
// Y0–Y3 hold partial dot products, Y15 the broadcast s.
TEXT ·dotAxpyAVX2(SB), NOSPLIT, $0-48
	MOVQ n+0(FP), CX
	MOVQ y+8(FP), DX
	MOVQ a+16(FP), SI
	MOVQ x+24(FP), DI
	VBROADCASTSD s+32(FP), Y15
	DOTAXPY(loop16, loop4, done)
	VZEROUPPER
	MOVSD X0, ret+40(FP)
	RET

// func symvRowsFMA(y, a *float64, m, lo, r0, r1 int, x *float64)
// symvRowsGo with its DotAxpy (dotAxpyVec) inlined, row by row, with the
// same bits: for each row r of the upper triangle a (stride m), d is
// dotAxpyAVX2's sum over the row's multiple of 4 entries after the
// diagonal (Y0–Y3, reduced as there), then the tail's products added one
// at a time, the tail of y updated by a rounded multiply and add, and
// y[r−lo] += a[r,r]·x[r−lo] + d. It saves the per-row call, slicing and
// length checks, a large share of a row's time at m in the hundreds.
TEXT ·symvRowsFMA(SB), NOSPLIT, $0-56
	MOVQ y+0(FP), R12
	MOVQ a+8(FP), R13
	MOVQ m+16(FP), R10
	MOVQ lo+24(FP), R11
	MOVQ r0+32(FP), R8
	MOVQ r1+40(FP), R9

row:
	CMPQ R8, R9
	JGE  end
	MOVQ R8, AX
	IMULQ R10, AX
	ADDQ R8, AX
	LEAQ (R13)(AX*8), SI     // &a[r·m+r]
	MOVQ R8, AX
	SUBQ R11, AX             // r − lo
	MOVQ x+48(FP), DI
	LEAQ (DI)(AX*8), DI      // &x[r−lo]
	LEAQ (R12)(AX*8), DX     // &y[r−lo]
	MOVQ DX, AX              // kept for the diagonal
	MOVQ R10, BX
	SUBQ R8, BX
	DECQ BX                  // n = m − r − 1
	MOVQ BX, CX
	ANDQ $-4, CX             // the multiple of 4
	ANDQ $3, BX              // the tail
	VBROADCASTSD 0(DI), Y15  // s = x[r−lo]
	VMOVSD 0(SI), X14        // a[r,r]
	ADDQ $8, DX
	ADDQ $8, SI
	ADDQ $8, DI
	DOTAXPY(r16, r4, rsum)   // d in X0
	TESTQ BX, BX
	JEQ   rdiag

r1:
	VMOVSD 0(SI), X4
	VMULSD 0(DI), X4, X5
	VADDSD X5, X0, X0        // d += a·x
	VMULSD X15, X4, X6
	VADDSD 0(DX), X6, X6     // y += a·s
	VMOVSD X6, 0(DX)
	ADDQ $8, SI
	ADDQ $8, DI
	ADDQ $8, DX
	DECQ BX
	JNZ  r1

rdiag:
	VMULSD X15, X14, X14     // a[r,r]·x[r−lo]
	VADDSD X0, X14, X14      // + d
	VADDSD 0(AX), X14, X14   // y[r−lo] + that
	VMOVSD X14, 0(AX)
	INCQ R8
	JMP  row

end:
	VZEROUPPER
	RET
