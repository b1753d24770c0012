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

// func fwhtRadix4AVX(x *float64, n, h int)
// Levels h and 2h of fwhtPortable on the quadruples (j, j+h, j+2h, j+3h),
// four j per iteration; h a multiple of 4, 4h dividing n.
TEXT ·fwhtRadix4AVX(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), R12
	SHLQ $3, R12
	ADDQ SI, R12
	MOVQ h+16(FP), R8
	SHLQ $3, R8

quad:
	MOVQ SI, DI
	LEAQ (SI)(R8*1), BX
	MOVQ R8, CX

four:
	VMOVUPD (DI), Y0
	VMOVUPD (BX), Y1
	VMOVUPD (DI)(R8*2), Y2
	VMOVUPD (BX)(R8*2), Y3
	VADDPD Y1, Y0, Y4
	VSUBPD Y1, Y0, Y5
	VADDPD Y3, Y2, Y6
	VSUBPD Y3, Y2, Y7
	VADDPD Y6, Y4, Y0
	VSUBPD Y6, Y4, Y2
	VADDPD Y7, Y5, Y1
	VSUBPD Y7, Y5, Y3
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, (BX)
	VMOVUPD Y2, (DI)(R8*2)
	VMOVUPD Y3, (BX)(R8*2)
	ADDQ $32, DI
	ADDQ $32, BX
	SUBQ $32, CX
	JNZ  four

	LEAQ (SI)(R8*4), SI
	CMPQ SI, R12
	JLT  quad
	VZEROUPPER
	RET

// func fwhtRadix2AVX(x *float64, h int)
// The last level of fwhtPortable: x[j], x[h+j] ← x[j]+x[h+j], x[j]−x[h+j],
// h a multiple of 4.
TEXT ·fwhtRadix2AVX(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), DI
	MOVQ h+8(FP), CX
	LEAQ (DI)(CX*8), BX

two:
	VMOVUPD (DI), Y0
	VMOVUPD (BX), Y1
	VADDPD Y1, Y0, Y2
	VSUBPD Y1, Y0, Y3
	VMOVUPD Y2, (DI)
	VMOVUPD Y3, (BX)
	ADDQ $32, DI
	ADDQ $32, BX
	SUBQ $4, CX
	JNZ  two
	VZEROUPPER
	RET
