//go:build amd64 && !noasm

#include "textflag.h"

// func radix2LevelAVX(x *complex128, n, half int, tw *complex128, step int, mask *[4]float64)
// One level of radix2Portable, butterflies spanning 2·half entries (half
// even), two per iteration: w = [wr, wi] of tw[j·step], tw[(j+1)·step]
// with the sign mask applied; t = [br·wr − bi·wi, br·wi + bi·wr] by
// VADDSUBPD of separately rounded products (no FMA); a ± t.
TEXT ·radix2LevelAVX(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), R12
	SHLQ $4, R12
	ADDQ SI, R12
	MOVQ half+16(FP), R8
	MOVQ R8, R11
	SHLQ $4, R11
	MOVQ tw+24(FP), R9
	MOVQ step+32(FP), R10
	SHLQ $4, R10
	MOVQ mask+40(FP), AX
	VMOVUPD (AX), Y15

group:
	MOVQ SI, DI
	LEAQ (SI)(R11*1), BX
	MOVQ R9, DX
	MOVQ R8, CX

pair:
	VMOVUPD (DX), X0
	VINSERTF128 $1, (DX)(R10*1), Y0, Y0
	VXORPD Y15, Y0, Y0
	VMOVUPD (BX), Y1
	VMOVDDUP Y1, Y2
	VPERMILPD $15, Y1, Y3
	VPERMILPD $5, Y0, Y4
	VMULPD Y0, Y2, Y2
	VMULPD Y4, Y3, Y3
	VADDSUBPD Y3, Y2, Y2
	VMOVUPD (DI), Y1
	VADDPD Y2, Y1, Y5
	VSUBPD Y2, Y1, Y6
	VMOVUPD Y5, (DI)
	VMOVUPD Y6, (BX)
	ADDQ $32, DI
	ADDQ $32, BX
	LEAQ (DX)(R10*2), DX
	SUBQ $2, CX
	JNZ  pair

	LEAQ (SI)(R11*2), SI
	CMPQ SI, R12
	JLT  group
	VZEROUPPER
	RET
