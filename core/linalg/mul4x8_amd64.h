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
