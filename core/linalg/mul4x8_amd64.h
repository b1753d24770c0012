// MUL4X8ARGS loads the arguments k, a, lda, b, ldb, c, ldc the two 4×8
// kernels share (the same frame offsets): k in CX, b in DI, c in DX, the
// strides in bytes in R8 (a), R9 (b) and R10 (c), and a's rows 0–3 in SI,
// R11, R12 and R13.
#define MUL4X8ARGS \
	MOVQ k+0(FP), CX \
	MOVQ a+8(FP), SI \
	MOVQ lda+16(FP), R8 \
	SHLQ $3, R8 \
	MOVQ b+24(FP), DI \
	MOVQ ldb+32(FP), R9 \
	SHLQ $3, R9 \
	MOVQ c+40(FP), DX \
	MOVQ ldc+48(FP), R10 \
	SHLQ $3, R10 \
	LEAQ (SI)(R8*1), R11 \
	LEAQ (SI)(R8*2), R12 \
	LEAQ (R11)(R8*2), R13

// MUL4X8ZERO clears the sums Y0–Y7 (c = a·b rather than c += a·b).
#define MUL4X8ZERO \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

// MUL4X8NEXT moves to step l+1: the next entry of each of a's rows, the
// next row of b.
#define MUL4X8NEXT \
	ADDQ $8, SI \
	ADDQ $8, R11 \
	ADDQ $8, R12 \
	ADDQ $8, R13 \
	ADDQ R9, DI

// MUL4X8STEP adds one step l of a 4×8 product: b's row l in Y8 (columns
// 0–3) and Y9 (columns 4–7) times a's entries (SI), (R11), (R12), (R13) of
// rows 0–3, added to the sums Y0–Y7 (two per row) with a rounded multiply
// and then a rounded add, never fused: mulPortable's bits. Y10–Y12 are
// scratch. mul4x8AVX2 (kernel_amd64.s) and mul4x8MaskAVX (plain_amd64.s)
// both expand it, so their entries are summed alike.
#define MUL4X8STEP \
	VBROADCASTSD (SI), Y10 \
	VMULPD Y8, Y10, Y11 \
	VADDPD Y11, Y0, Y0 \
	VMULPD Y9, Y10, Y12 \
	VADDPD Y12, Y1, Y1 \
	VBROADCASTSD (R11), Y10 \
	VMULPD Y8, Y10, Y11 \
	VADDPD Y11, Y2, Y2 \
	VMULPD Y9, Y10, Y12 \
	VADDPD Y12, Y3, Y3 \
	VBROADCASTSD (R12), Y10 \
	VMULPD Y8, Y10, Y11 \
	VADDPD Y11, Y4, Y4 \
	VMULPD Y9, Y10, Y12 \
	VADDPD Y12, Y5, Y5 \
	VBROADCASTSD (R13), Y10 \
	VMULPD Y8, Y10, Y11 \
	VADDPD Y11, Y6, Y6 \
	VMULPD Y9, Y10, Y12 \
	VADDPD Y12, Y7, Y7
