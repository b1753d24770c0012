//go:build amd64 && !noasm

#include "textflag.h"

// func projectPanel16AVX(v *float64, panel *float64, n, nj int)
// project4's operations on 16 rows packed t-major (v[16t+r] is entry t of
// row r), four rows per vector: P = Σ_t v[t]·u_0[t]; for each panel row
// u_j, v[t] = v[t] − P·u_j[t] (separately rounded product, then the
// subtraction) and, in the same pass, Q += v[t]·u_{j+1}[t]; n ≥ 1, nj ≥ 1.
TEXT ·projectPanel16AVX(SB), NOSPLIT, $0-32
	MOVQ v+0(FP), SI
	MOVQ panel+8(FP), DX
	MOVQ n+16(FP), CX
	MOVQ nj+24(FP), R8
	MOVQ CX, R9
	SHLQ $3, R9 // bytes per panel row

	// P = Σ_t v[t]·u_0[t]
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ SI, DI
	MOVQ DX, BX
	MOVQ CX, R10

dot0:
	VBROADCASTSD (BX), Y8
	VMULPD (DI), Y8, Y10
	VMULPD 32(DI), Y8, Y11
	VMULPD 64(DI), Y8, Y12
	VMULPD 96(DI), Y8, Y13
	VADDPD Y10, Y0, Y0
	VADDPD Y11, Y1, Y1
	VADDPD Y12, Y2, Y2
	VADDPD Y13, Y3, Y3
	ADDQ $128, DI
	ADDQ $8, BX
	DECQ R10
	JNZ  dot0

	DECQ R8
	JZ   last

fused:
	// BX = u_j, R11 = u_{j+1}
	MOVQ DX, BX
	LEAQ (DX)(R9*1), R11
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ SI, DI
	MOVQ CX, R10

fusedLoop:
	VBROADCASTSD (BX), Y8
	VBROADCASTSD (R11), Y9
	VMULPD Y0, Y8, Y10
	VMULPD Y1, Y8, Y11
	VMULPD Y2, Y8, Y12
	VMULPD Y3, Y8, Y13
	VMOVUPD (DI), Y14
	VSUBPD Y10, Y14, Y14
	VMOVUPD Y14, (DI)
	VMULPD Y14, Y9, Y14
	VADDPD Y14, Y4, Y4
	VMOVUPD 32(DI), Y15
	VSUBPD Y11, Y15, Y15
	VMOVUPD Y15, 32(DI)
	VMULPD Y15, Y9, Y15
	VADDPD Y15, Y5, Y5
	VMOVUPD 64(DI), Y14
	VSUBPD Y12, Y14, Y14
	VMOVUPD Y14, 64(DI)
	VMULPD Y14, Y9, Y14
	VADDPD Y14, Y6, Y6
	VMOVUPD 96(DI), Y15
	VSUBPD Y13, Y15, Y15
	VMOVUPD Y15, 96(DI)
	VMULPD Y15, Y9, Y15
	VADDPD Y15, Y7, Y7
	ADDQ $128, DI
	ADDQ $8, BX
	ADDQ $8, R11
	DECQ R10
	JNZ  fusedLoop

	VMOVAPD Y4, Y0
	VMOVAPD Y5, Y1
	VMOVAPD Y6, Y2
	VMOVAPD Y7, Y3
	ADDQ R9, DX
	DECQ R8
	JNZ  fused

last:
	MOVQ SI, DI
	MOVQ DX, BX
	MOVQ CX, R10

lastLoop:
	VBROADCASTSD (BX), Y8
	VMULPD Y0, Y8, Y10
	VMULPD Y1, Y8, Y11
	VMULPD Y2, Y8, Y12
	VMULPD Y3, Y8, Y13
	VMOVUPD (DI), Y14
	VSUBPD Y10, Y14, Y14
	VMOVUPD Y14, (DI)
	VMOVUPD 32(DI), Y15
	VSUBPD Y11, Y15, Y15
	VMOVUPD Y15, 32(DI)
	VMOVUPD 64(DI), Y14
	VSUBPD Y12, Y14, Y14
	VMOVUPD Y14, 64(DI)
	VMOVUPD 96(DI), Y15
	VSUBPD Y13, Y15, Y15
	VMOVUPD Y15, 96(DI)
	ADDQ $128, DI
	ADDQ $8, BX
	DECQ R10
	JNZ  lastLoop

	VZEROUPPER
	RET
