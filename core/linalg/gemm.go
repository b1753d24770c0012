package linalg

import (
	"runtime"
	"sync"
)

// gemmRowChunk is the number of rows of a that gemm keeps in L2 while the
// column strips of b pass over them: 256 rows of 128 inner indices are
// 256 KiB.
const gemmRowChunk = 256

// gemm sets c = a·b, or adds a·b to c when add is set, for row-major
// blocks with row strides: a is n×k (stride lda), b is k×m (stride ldb),
// c is n×m (stride ldc). Like Mul, every entry is summed in increasing
// inner index with separately rounded products, starting from 0 or from
// c, so the bits do not depend on the kernel or on how the work is split
// among the cores (by rows when c is tall, else by columns).
func gemm(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, n, k, m int, add bool) {
	if n <= 0 || m <= 0 {
		return
	}
	if k == 0 {
		if !add {
			for i := range n {
				clear(c[i*ldc : i*ldc+m])
			}
		}
		return
	}
	_ = a[(n-1)*lda+k-1]
	_ = b[(k-1)*ldb+m-1]
	_ = c[(n-1)*ldc+m-1]
	if gemm64Host != nil && n*k*m >= mulHostMin {
		gemm64Host(c, ldc, a, lda, b, ldb, n, k, m, add)
		return
	}
	workers := 1
	if n*k*m >= minParallel {
		workers = runtime.GOMAXPROCS(0)
	}
	run := func(i0, i1, j0, j1 int) { gemmBlock(c, ldc, a, lda, b, ldb, i0, i1, j0, j1, k, add) }
	switch {
	case workers <= 1:
		run(0, n, 0, m)
	case n >= 8*workers && n >= m/4:
		// Tall: rows in multiples of 4 per worker.
		var wg sync.WaitGroup
		for w := range workers {
			i0 := (n * w / workers) &^ 3
			i1 := (n * (w + 1) / workers) &^ 3
			if w == workers-1 {
				i1 = n
			}
			wg.Go(func() { run(i0, i1, 0, m) })
		}
		wg.Wait()
	default:
		// Wide: columns in strips of 32, so each worker reads its own part
		// of b once; with fewer strips than workers (the band reduction's
		// 64×256 blocks on 16 cores) the rows are split too, in multiples
		// of 4, so that no worker idles.
		strips := (m + 31) / 32
		cg := min(workers, strips)
		rg := max(1, min(workers/cg, n/4))
		var wg sync.WaitGroup
		for gc := range cg {
			j0, j1 := min(32*(strips*gc/cg), m), min(32*(strips*(gc+1)/cg), m)
			for gr := range rg {
				i0, i1 := (n*gr/rg)&^3, (n*(gr+1)/rg)&^3
				if gr == rg-1 {
					i1 = n
				}
				wg.Go(func() { run(i0, i1, j0, j1) })
			}
		}
		wg.Wait()
	}
}

// gemmHere is gemm on the calling goroutine (a caller that already splits
// the work among the cores): the host kernel where one is installed and
// the product is large enough, else gemmBlock, with the same bits.
func gemmHere(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, n, k, m int, add bool) {
	if gemm64Host != nil && n > 0 && k > 0 && m > 0 && n*k*m >= mulHostMin {
		gemm64Host(c, ldc, a, lda, b, ldb, n, k, m, add)
		return
	}
	gemmBlock(c, ldc, a, lda, b, ldb, 0, n, 0, m, k, add)
}

// gemmBlock computes rows [i0, i1) and columns [j0, j1) of gemm's product:
// the 4-row SIMD kernels where this build has them, row chunks of a kept in
// L2, then the portable loop for what they leave.
func gemmBlock(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, i0, i1, j0, j1, k int, add bool) {
	for ic := i0; ic < i1; ic += gemmRowChunk {
		ie := min(ic+gemmRowChunk, i1)
		r1 := ie - (ie-ic)%4
		je := gemmStrips(c, ldc, a, lda, b, ldb, ic, r1, j0, j1, k, add)
		gemmPortable(c, ldc, a, lda, b, ldb, ic, r1, je, j1, k, add)
		gemmPortable(c, ldc, a, lda, b, ldb, r1, ie, j0, j1, k, add)
	}
}

// gemmPortable is gemmBlock in plain Go, the reference order of sums.
func gemmPortable(c []float64, ldc int, a []float64, lda int, b []float64, ldb int, i0, i1, j0, j1, k int, add bool) {
	if i0 >= i1 || j0 >= j1 {
		return
	}
	for i := i0; i < i1; i++ {
		ci := c[i*ldc+j0 : i*ldc+j1]
		if !add {
			clear(ci)
		}
		for l, av := range a[i*lda : i*lda+k] {
			bl := b[l*ldb+j0 : l*ldb+j1]
			for j := range ci {
				ci[j] += float64(av * bl[j])
			}
		}
	}
}
