//go:build amd64 && !noasm

#include "textflag.h"

// func rotRows(n int, x, y *float64, c, s float64)
// For i < n, a multiple of 8: y[i] ← s·x[i] + c·y[i], x[i] ← c·x[i] − s·y[i]
// (both from the old values), multiplies and adds apart as in Go.
TEXT ·rotRows(SB), NOSPLIT, $0-40
	MOVQ n+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	VBROADCASTSD c+24(FP), Y0
	VBROADCASTSD s+32(FP), Y1

loop:
	VMOVUPD 0(SI), Y2   // x
	VMOVUPD 0(DI), Y3   // y
	VMOVUPD 32(SI), Y4
	VMOVUPD 32(DI), Y5
	VMULPD Y2, Y1, Y6   // s·x
	VMULPD Y3, Y0, Y7   // c·y
	VADDPD Y7, Y6, Y6
	VMULPD Y2, Y0, Y8   // c·x
	VMULPD Y3, Y1, Y9   // s·y
	VSUBPD Y9, Y8, Y8
	VMULPD Y4, Y1, Y10
	VMULPD Y5, Y0, Y11
	VADDPD Y11, Y10, Y10
	VMULPD Y4, Y0, Y12
	VMULPD Y5, Y1, Y13
	VSUBPD Y13, Y12, Y12
	VMOVUPD Y6, 0(DI)
	VMOVUPD Y8, 0(SI)
	VMOVUPD Y10, 32(DI)
	VMOVUPD Y12, 32(SI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JNZ  loop
	VZEROUPPER
	RET
