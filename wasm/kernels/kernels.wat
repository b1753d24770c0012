;; Hand-written WebAssembly SIMD micro-kernels for ntkrf's core (issue 41),
;; run on the Go instance's own linear memory: this module imports it, and
;; jsbridge calls its exports with addresses of Go slices, once per packed
;; block, so the cost of crossing into JavaScript is paid per block, not
;; per tile. Assembled at build time (wasm/kernels/assemble.mjs, the wabt
;; package) into dist/npm/kernels.wasm.
;;
;; gram32 is core/linalg's addAtA32 for one packed block (the float32 Gram,
;; the package's default for a classification), gram64 is addAtB's (the
;; float64 Gram, the Cholesky's trailing updates, the band reduction's
;; rank-2k updates), rect64 is symmLeft's for one strip and block of rows
;; (the band reduction's VᵀA₂₂): the whole of the block's work, item by
;; item in upperItems' order (gram32, gram64), each entry summed from zero
;; over the block's rows in increasing order, a rounded product and a
;; rounded sum per row, then added to g. strips32 is mul32StripPanels' row
;; groups (Weights32.Mul: the features' float32 projections) and mul64 is
;; linalg.Mul's rows (the exact leave-one-out's Q and residuals; a and b
;; read in place), each entry such a sum, stored; gemm64 is gemm's
;; strided product (the band reduction's panel products, the Cholesky's
;; off-diagonal blocks), each entry such a sum from zero or from c.
;; symv64 is symvRows (the one-stage reduction's symmetric products) with
;; dotAxpySIMD's partial sums; chase64 is applyChaseQEach's loop for a
;; group of columns (the bulge chase's reflectors, each a dot product and
;; an update as the WebAssembly dot and axpy make them). That is the
;; arithmetic of the Go kernels they replace (tile32SIMD, tileSIMD,
;; mul4x8F32, mul4x4SIMD, gemm4x4SIMD, dotAxpySIMD, dot, axpy): the bits are
;; the same (linalg.Gram32HostGo, Gram64HostGo, Rect64HostGo,
;; Strips32HostGo, Mul64HostGo, Gemm64HostGo, Symv64HostGo and
;; Chase64HostGo are their loops in Go; jsbridge's TestKernels*,
;; test/simd.test.js). No relaxed SIMD: a fused float32 multiply-add rounds
;; once where gram32 must round twice, and gram64's operands (centered
;; features, the reduction's matrices) are not float32 values, whose
;; products alone would be exact in float64 and let a fused madd keep the bits.
;;
;; Compared with Go's code for the same kernels: no jump table on the
;; loops' back edges, loads at constant offsets from one pointer per
;; operand, the eight sums of a 4×8 (float32) or 4×4 (float64) block in
;; registers. One row of the panels per iteration, not unrolled: unrolled
;; four rows, V8's optimizing compiler hoisted every load of the four to
;; the loop's top, each constant offset a base register of its own
;; (memory start + offset), and spilled them and the loaded values to the
;; stack: the float64 block ran at 8 GFLOP/s in cache, 20 rolled
;; (docs/PERFORMANCE.md, "The kernels' loops rolled").
(module
  (import "env" "memory" (memory 0))

  ;; block4x8 adds to the 4×8 float64 block at c (rows ldc bytes apart) the
  ;; float32 sums over l < k of the outer products of the 4 float32 values
  ;; at a + 32l (rows of a left half-panel, copied aside) and the 8 at
  ;; b + 64l (rows of a 16-value panel), each sum from zero in increasing l.
  (func $block4x8 (param $k i32) (param $a i32) (param $b i32) (param $c i32) (param $ldc i32)
    (local $end i32) (local $b0 v128) (local $b1 v128) (local $x v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 5))))
    (if (i32.lt_u (local.get $a) (local.get $end)) (then
      (loop $one
      (local.set $b0 (v128.load offset=0 (local.get $b)))
      (local.set $b1 (v128.load offset=16 (local.get $b)))
      (local.set $x (v128.load32_splat offset=0 (local.get $a)))
      (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=4 (local.get $a)))
      (local.set $c10 (f32x4.add (local.get $c10) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c11 (f32x4.add (local.get $c11) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=8 (local.get $a)))
      (local.set $c20 (f32x4.add (local.get $c20) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c21 (f32x4.add (local.get $c21) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=12 (local.get $a)))
      (local.set $c30 (f32x4.add (local.get $c30) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c31 (f32x4.add (local.get $c31) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $a (i32.add (local.get $a) (i32.const 32)))
      (local.set $b (i32.add (local.get $b) (i32.const 64)))
      (br_if $one (i32.lt_u (local.get $a) (local.get $end))))))
    ;; c += float64(sums), row r at c + r·ldc.
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c00))))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c00) (local.get $c00)))))
    (v128.store offset=32 (local.get $c) (f64x2.add (v128.load offset=32 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c01))))
    (v128.store offset=48 (local.get $c) (f64x2.add (v128.load offset=48 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c01) (local.get $c01)))))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c10))))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c10) (local.get $c10)))))
    (v128.store offset=32 (local.get $c) (f64x2.add (v128.load offset=32 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c11))))
    (v128.store offset=48 (local.get $c) (f64x2.add (v128.load offset=48 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c11) (local.get $c11)))))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c20))))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c20) (local.get $c20)))))
    (v128.store offset=32 (local.get $c) (f64x2.add (v128.load offset=32 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c21))))
    (v128.store offset=48 (local.get $c) (f64x2.add (v128.load offset=48 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c21) (local.get $c21)))))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c30))))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c30) (local.get $c30)))))
    (v128.store offset=32 (local.get $c) (f64x2.add (v128.load offset=32 (local.get $c)) (f64x2.promote_low_f32x4 (local.get $c31))))
    (v128.store offset=48 (local.get $c) (f64x2.add (v128.load offset=48 (local.get $c)) (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $c31) (local.get $c31)))))
  )

;; tile adds to the 8×48 float64 tile at c (rows ldc bytes apart) the
  ;; products of the left half-panel at a (8 values a row, rows 32 bytes
  ;; apart: the copy gram32 makes) and the three right panels from b, ps
  ;; bytes apart: tile32Portable's job. Panel after panel, so that one
  ;; panel's rows (k·64 bytes) and the left half-panel's (k·32) stay in L1
  ;; through its four 4×8 blocks.
  (func $tile (param $k i32) (param $a i32) (param $b i32) (param $ps i32) (param $c i32) (param $ldc i32)
    (local $q i32) (local $c4 i32)
    (local.set $c4 (i32.shl (local.get $ldc) (i32.const 2)))
    (loop $panels
      (call $block4x8 (local.get $k) (local.get $a) (local.get $b) (local.get $c) (local.get $ldc))
      (call $block4x8 (local.get $k) (local.get $a) (i32.add (local.get $b) (i32.const 32))
        (i32.add (local.get $c) (i32.const 64)) (local.get $ldc))
      (call $block4x8 (local.get $k) (i32.add (local.get $a) (i32.const 16)) (local.get $b)
        (i32.add (local.get $c) (local.get $c4)) (local.get $ldc))
      (call $block4x8 (local.get $k) (i32.add (local.get $a) (i32.const 16)) (i32.add (local.get $b) (i32.const 32))
        (i32.add (i32.add (local.get $c) (local.get $c4)) (i32.const 64)) (local.get $ldc))
      (local.set $b (i32.add (local.get $b) (local.get $ps)))
      (local.set $c (i32.add (local.get $c) (i32.const 128)))
      (br_if $panels (i32.lt_u (local.tee $q (i32.add (local.get $q) (i32.const 1))) (i32.const 3)))))

  ;; gram32 adds the packed block's AᵀA to the upper triangle of the m×m
  ;; float64 g (row stride m), as core/linalg's addAtA32 does for one block
  ;; of k rows on one worker: pack holds the block as float32 panels of 16
  ;; columns, k rows each (panels past column m zero, 3·⌈m/48⌉ of them);
  ;; scratch is 384 float64 for the tiles on the diagonal or the edge,
  ;; computed aside from zero and added to g where they lie in its upper
  ;; triangle (addUpper), then k·8 float32 for the left half-panel of the
  ;; tiles' rows (linalg.Gram32HostScratch in all). Work items are 64 rows
  ;; by 384 columns of g.
  (func (export "gram32") (param $k i32) (param $m i32) (param $pack i32) (param $g i32) (param $scratch i32)
    (local $ps i32) (local $i0 i32) (local $j0 i32) (local $i i32) (local $j i32)
    (local $iend i32) (local $jend i32) (local $ap i32) (local $r i32) (local $s i32) (local $p i32)
    (local $left i32)
    (local.set $ps (i32.shl (local.get $k) (i32.const 6)))
    (local.set $left (i32.add (local.get $scratch) (i32.const 3072)))
    (block $done_i0 (loop $loop_i0
      (br_if $done_i0 (i32.ge_u (local.get $i0) (local.get $m)))
      (local.set $j0 (i32.const 0))
      (block $done_j0 (loop $loop_j0
        (br_if $done_j0 (i32.ge_u (local.get $j0) (local.get $m)))
        ;; Items that touch the upper triangle: j0 + 384 > i0.
        (if (i32.gt_u (i32.add (local.get $j0) (i32.const 384)) (local.get $i0)) (then
          (local.set $iend (select (i32.add (local.get $i0) (i32.const 64)) (local.get $m)
            (i32.lt_u (i32.add (local.get $i0) (i32.const 64)) (local.get $m))))
          (local.set $jend (select (i32.add (local.get $j0) (i32.const 384)) (local.get $m)
            (i32.lt_u (i32.add (local.get $j0) (i32.const 384)) (local.get $m))))
          (local.set $i (local.get $i0))
          (loop $loop_i
            ;; Left half-panel: panel i/16, values i mod 16 on, copied to
            ;; left (32 bytes a row, half a cache line).
            (local.set $ap (i32.add (local.get $pack)
              (i32.add (i32.mul (i32.shr_u (local.get $i) (i32.const 4)) (local.get $ps))
                (i32.shl (i32.and (local.get $i) (i32.const 15)) (i32.const 2)))))
            (local.set $p (i32.const 0))
            (loop $copy
              (v128.store offset=0 (i32.add (local.get $left) (local.get $p))
                (v128.load offset=0 (i32.add (local.get $ap) (i32.shl (local.get $p) (i32.const 1)))))
              (v128.store offset=16 (i32.add (local.get $left) (local.get $p))
                (v128.load offset=16 (i32.add (local.get $ap) (i32.shl (local.get $p) (i32.const 1)))))
              (br_if $copy (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 32))) (i32.shl (local.get $k) (i32.const 5)))))
            (local.set $ap (local.get $left))
            ;; j from max(j0, ⌊i/48⌋·48).
            (local.set $j (i32.mul (i32.div_u (local.get $i) (i32.const 48)) (i32.const 48)))
            (if (i32.lt_u (local.get $j) (local.get $j0)) (then (local.set $j (local.get $j0))))
            (block $done_j (loop $loop_j
              (br_if $done_j (i32.ge_u (local.get $j) (local.get $jend)))
              (if (i32.and
                    (i32.and (i32.ge_u (local.get $j) (i32.add (local.get $i) (i32.const 8)))
                      (i32.le_u (i32.add (local.get $j) (i32.const 48)) (local.get $m)))
                    (i32.le_u (i32.add (local.get $i) (i32.const 8)) (local.get $m)))
                (then
                  ;; Inside the upper triangle: straight into g.
                  (call $tile (local.get $k) (local.get $ap)
                    (i32.add (local.get $pack) (i32.mul (i32.shr_u (local.get $j) (i32.const 4)) (local.get $ps)))
                    (local.get $ps)
                    (i32.add (local.get $g) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $m)) (local.get $j)) (i32.const 3)))
                    (i32.shl (local.get $m) (i32.const 3))))
                (else
                  ;; Diagonal or edge: aside from zero, then the upper part.
                  (local.set $p (i32.const 0))
                  (loop $zero
                    (v128.store (i32.add (local.get $scratch) (local.get $p)) (v128.const i64x2 0 0))
                    (br_if $zero (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (i32.const 3072))))
                  (call $tile (local.get $k) (local.get $ap)
                    (i32.add (local.get $pack) (i32.mul (i32.shr_u (local.get $j) (i32.const 4)) (local.get $ps)))
                    (local.get $ps) (local.get $scratch) (i32.const 384))
                  (local.set $r (i32.const 0))
                  (block $done_r (loop $loop_r
                    (br_if $done_r (i32.ge_u (local.get $r) (i32.const 8)))
                    (br_if $done_r (i32.ge_u (i32.add (local.get $i) (local.get $r)) (local.get $m)))
                    ;; s from max(0, i + r − j) while s < 48 and j + s < m.
                    (local.set $s (i32.const 0))
                    (if (i32.gt_s (i32.sub (i32.add (local.get $i) (local.get $r)) (local.get $j)) (i32.const 0))
                      (then (local.set $s (i32.sub (i32.add (local.get $i) (local.get $r)) (local.get $j)))))
                    (block $done_s (loop $loop_s
                      (br_if $done_s (i32.ge_u (local.get $s) (i32.const 48)))
                      (br_if $done_s (i32.ge_u (i32.add (local.get $j) (local.get $s)) (local.get $m)))
                      (local.set $p (i32.add (local.get $g) (i32.shl (i32.add
                        (i32.mul (i32.add (local.get $i) (local.get $r)) (local.get $m))
                        (i32.add (local.get $j) (local.get $s))) (i32.const 3))))
                      (f64.store (local.get $p) (f64.add (f64.load (local.get $p))
                        (f64.load (i32.add (local.get $scratch)
                          (i32.shl (i32.add (i32.mul (local.get $r) (i32.const 48)) (local.get $s)) (i32.const 3))))))
                      (local.set $s (i32.add (local.get $s) (i32.const 1)))
                      (br $loop_s)))
                    (local.set $r (i32.add (local.get $r) (i32.const 1)))
                    (br $loop_r)))))
              (local.set $j (i32.add (local.get $j) (i32.const 48)))
              (br $loop_j)))
            (br_if $loop_i (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 8))) (local.get $iend))))))
        (local.set $j0 (i32.add (local.get $j0) (i32.const 384)))
        (br $loop_j0)))
      (local.set $i0 (i32.add (local.get $i0) (i32.const 64)))
      (br $loop_i0)))
  )

  ;; block4x4 adds to the 4×4 float64 block at c (rows ldc bytes apart) the
  ;; sums over l < k of the outer products of the 4 values at a + 64l and
  ;; the 4 at b + 64l (rows of 8-value panels), each sum from zero in
  ;; increasing l, each product and sum rounded: Go's block4x4 and
  ;; kernel4x2.
  (func $block4x4 (param $k i32) (param $a i32) (param $b i32) (param $c i32) (param $ldc i32)
    (local $end i32) (local $b0 v128) (local $b1 v128) (local $x v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 6))))
    (if (i32.lt_u (local.get $a) (local.get $end)) (then
      (loop $one
      (local.set $b0 (v128.load offset=0 (local.get $b)))
      (local.set $b1 (v128.load offset=16 (local.get $b)))
      (local.set $x (v128.load64_splat offset=0 (local.get $a)))
      (local.set $c00 (f64x2.add (local.get $c00) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c01 (f64x2.add (local.get $c01) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load64_splat offset=8 (local.get $a)))
      (local.set $c10 (f64x2.add (local.get $c10) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c11 (f64x2.add (local.get $c11) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load64_splat offset=16 (local.get $a)))
      (local.set $c20 (f64x2.add (local.get $c20) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c21 (f64x2.add (local.get $c21) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load64_splat offset=24 (local.get $a)))
      (local.set $c30 (f64x2.add (local.get $c30) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $a (i32.add (local.get $a) (i32.const 64)))
      (local.set $b (i32.add (local.get $b) (i32.const 64)))
      (br_if $one (i32.lt_u (local.get $a) (local.get $end))))))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (local.get $c00)))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (local.get $c01)))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (local.get $c10)))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (local.get $c11)))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (local.get $c20)))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (local.get $c21)))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (f64x2.add (v128.load offset=0 (local.get $c)) (local.get $c30)))
    (v128.store offset=16 (local.get $c) (f64x2.add (v128.load offset=16 (local.get $c)) (local.get $c31)))
  )

  ;; tile64 adds to the 8×24 float64 tile at c (rows ldc bytes apart) the
  ;; products of the left panel at a (8 values a row) and the three right
  ;; panels from b, ps bytes apart: tileSIMD's job, panel after panel.
  (func $tile64 (param $k i32) (param $a i32) (param $b i32) (param $ps i32) (param $c i32) (param $ldc i32)
    (local $q i32) (local $c4 i32)
    (local.set $c4 (i32.shl (local.get $ldc) (i32.const 2)))
    (loop $panels
      (call $block4x4 (local.get $k) (local.get $a) (local.get $b) (local.get $c) (local.get $ldc))
      (call $block4x4 (local.get $k) (local.get $a) (i32.add (local.get $b) (i32.const 32))
        (i32.add (local.get $c) (i32.const 32)) (local.get $ldc))
      (call $block4x4 (local.get $k) (i32.add (local.get $a) (i32.const 32)) (local.get $b)
        (i32.add (local.get $c) (local.get $c4)) (local.get $ldc))
      (call $block4x4 (local.get $k) (i32.add (local.get $a) (i32.const 32)) (i32.add (local.get $b) (i32.const 32))
        (i32.add (i32.add (local.get $c) (local.get $c4)) (i32.const 32)) (local.get $ldc))
      (local.set $b (i32.add (local.get $b) (local.get $ps)))
      (local.set $c (i32.add (local.get $c) (i32.const 64)))
      (br_if $panels (i32.lt_u (local.tee $q (i32.add (local.get $q) (i32.const 1))) (i32.const 3)))))

  ;; gram64 adds the product of a packed block to the upper triangle of the
  ;; m×m float64 block of g whose rows are ldg values apart, as
  ;; core/linalg's addAtB does for one block of k rows on one worker: left
  ;; and right hold the block as panels of 8 columns, k rows each (the left
  ;; ones negated for a subtraction; ⌈m/8⌉ + 2 panels, those past column m
  ;; zero); scratch holds 192 float64 for the tiles on the diagonal or the
  ;; edge, computed aside from zero and added where they lie in the upper
  ;; triangle. Work items are 64 rows by 192 columns.
  (func (export "gram64") (param $k i32) (param $m i32) (param $ldg i32) (param $left i32) (param $right i32) (param $g i32) (param $scratch i32)
    (local $ps i32) (local $np i32) (local $i0 i32) (local $j0 i32) (local $p i32) (local $q i32)
    (local $pend i32) (local $qend i32) (local $i i32) (local $j i32) (local $r i32) (local $s i32) (local $t i32)
    (local.set $ps (i32.shl (local.get $k) (i32.const 6)))
    (local.set $np (i32.shr_u (i32.add (local.get $m) (i32.const 7)) (i32.const 3)))
    (block $done_i0 (loop $loop_i0
      (br_if $done_i0 (i32.ge_u (local.get $i0) (local.get $m)))
      (local.set $j0 (i32.const 0))
      (block $done_j0 (loop $loop_j0
        (br_if $done_j0 (i32.ge_u (local.get $j0) (local.get $m)))
        (if (i32.gt_u (i32.add (local.get $j0) (i32.const 192)) (local.get $i0)) (then
          ;; pEnd = min((i0+64)/8, np), qEnd = min((j0+192)/8, np).
          (local.set $pend (i32.shr_u (i32.add (local.get $i0) (i32.const 64)) (i32.const 3)))
          (if (i32.gt_u (local.get $pend) (local.get $np)) (then (local.set $pend (local.get $np))))
          (local.set $qend (i32.shr_u (i32.add (local.get $j0) (i32.const 192)) (i32.const 3)))
          (if (i32.gt_u (local.get $qend) (local.get $np)) (then (local.set $qend (local.get $np))))
          (local.set $p (i32.shr_u (local.get $i0) (i32.const 3)))
          (block $done_p (loop $loop_p
            (br_if $done_p (i32.ge_u (local.get $p) (local.get $pend)))
            (local.set $q (i32.shr_u (local.get $j0) (i32.const 3)))
            (block $done_q (loop $loop_q
              (br_if $done_q (i32.ge_u (local.get $q) (local.get $qend)))
              ;; Tiles entirely below the diagonal (q + 2 < p) are skipped.
              (if (i32.ge_u (i32.add (local.get $q) (i32.const 2)) (local.get $p)) (then
                (local.set $i (i32.shl (local.get $p) (i32.const 3)))
                (local.set $j (i32.shl (local.get $q) (i32.const 3)))
                (if (i32.and
                      (i32.and (i32.ge_u (local.get $j) (i32.add (local.get $i) (i32.const 8)))
                        (i32.le_u (i32.add (local.get $j) (i32.const 24)) (local.get $m)))
                      (i32.le_u (i32.add (local.get $i) (i32.const 8)) (local.get $m)))
                  (then
                    (call $tile64 (local.get $k)
                      (i32.add (local.get $left) (i32.mul (local.get $p) (local.get $ps)))
                      (i32.add (local.get $right) (i32.mul (local.get $q) (local.get $ps)))
                      (local.get $ps)
                      (i32.add (local.get $g) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $ldg)) (local.get $j)) (i32.const 3)))
                      (i32.shl (local.get $ldg) (i32.const 3))))
                  (else
                    (local.set $t (i32.const 0))
                    (loop $zero
                      (v128.store (i32.add (local.get $scratch) (local.get $t)) (v128.const i64x2 0 0))
                      (br_if $zero (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 16))) (i32.const 1536))))
                    (call $tile64 (local.get $k)
                      (i32.add (local.get $left) (i32.mul (local.get $p) (local.get $ps)))
                      (i32.add (local.get $right) (i32.mul (local.get $q) (local.get $ps)))
                      (local.get $ps) (local.get $scratch) (i32.const 192))
                    (local.set $r (i32.const 0))
                    (block $done_r (loop $loop_r
                      (br_if $done_r (i32.ge_u (local.get $r) (i32.const 8)))
                      (br_if $done_r (i32.ge_u (i32.add (local.get $i) (local.get $r)) (local.get $m)))
                      (local.set $s (i32.const 0))
                      (if (i32.gt_s (i32.sub (i32.add (local.get $i) (local.get $r)) (local.get $j)) (i32.const 0))
                        (then (local.set $s (i32.sub (i32.add (local.get $i) (local.get $r)) (local.get $j)))))
                      (block $done_s (loop $loop_s
                        (br_if $done_s (i32.ge_u (local.get $s) (i32.const 24)))
                        (br_if $done_s (i32.ge_u (i32.add (local.get $j) (local.get $s)) (local.get $m)))
                        (local.set $t (i32.add (local.get $g) (i32.shl (i32.add
                          (i32.mul (i32.add (local.get $i) (local.get $r)) (local.get $ldg))
                          (i32.add (local.get $j) (local.get $s))) (i32.const 3))))
                        (f64.store (local.get $t) (f64.add (f64.load (local.get $t))
                          (f64.load (i32.add (local.get $scratch)
                            (i32.shl (i32.add (i32.mul (local.get $r) (i32.const 24)) (local.get $s)) (i32.const 3))))))
                        (local.set $s (i32.add (local.get $s) (i32.const 1)))
                        (br $loop_s)))
                      (local.set $r (i32.add (local.get $r) (i32.const 1)))
                      (br $loop_r)))))))
              (local.set $q (i32.add (local.get $q) (i32.const 3)))
              (br $loop_q)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $loop_p)))))
        (local.set $j0 (i32.add (local.get $j0) (i32.const 192)))
        (br $loop_j0)))
      (local.set $i0 (i32.add (local.get $i0) (i32.const 64)))
      (br $loop_i0)))
  )

  ;; rect64 adds to the rows×cols float64 block at x (rows ldx values
  ;; apart) the products of k rows of left panels (8 values a row, panels
  ;; ps bytes apart, ⌈rows/8⌉ of them) and right panels (8 values a row,
  ;; k·64 bytes apart, three per 24 columns): core/linalg's symmLeft for one
  ;; strip and block of rows (the band reduction's VᵀA₂₂), tile after tile,
  ;; the tiles past the block's last row or column aside in scratch (192
  ;; float64) from zero and their part inside added.
  (func (export "rect64") (param $k i32) (param $rows i32) (param $cols i32) (param $left i32) (param $ps i32)
      (param $right i32) (param $x i32) (param $ldx i32) (param $scratch i32)
    (local $bs i32) (local $g i32) (local $p i32) (local $np i32) (local $r0 i32) (local $w i32)
    (local $r i32) (local $j i32) (local $t i32)
    (local.set $bs (i32.shl (local.get $k) (i32.const 6)))
    (local.set $np (i32.shr_u (i32.add (local.get $rows) (i32.const 7)) (i32.const 3)))
    (block $done_g (loop $loop_g
      (br_if $done_g (i32.ge_u (local.get $g) (local.get $cols)))
      ;; w = min(24, cols − g)
      (local.set $w (i32.sub (local.get $cols) (local.get $g)))
      (if (i32.gt_u (local.get $w) (i32.const 24)) (then (local.set $w (i32.const 24))))
      (local.set $p (i32.const 0))
      (block $done_p (loop $loop_p
        (br_if $done_p (i32.ge_u (local.get $p) (local.get $np)))
        (local.set $r0 (i32.shl (local.get $p) (i32.const 3)))
        (if (i32.and (i32.le_u (i32.add (local.get $r0) (i32.const 8)) (local.get $rows))
              (i32.eq (local.get $w) (i32.const 24)))
          (then
            (call $tile64 (local.get $k)
              (i32.add (local.get $left) (i32.mul (local.get $p) (local.get $ps)))
              (i32.add (local.get $right) (i32.mul (i32.shr_u (local.get $g) (i32.const 3)) (local.get $bs)))
              (local.get $bs)
              (i32.add (local.get $x) (i32.shl (i32.add (i32.mul (local.get $r0) (local.get $ldx)) (local.get $g)) (i32.const 3)))
              (i32.shl (local.get $ldx) (i32.const 3))))
          (else
            (local.set $t (i32.const 0))
            (loop $zero
              (v128.store (i32.add (local.get $scratch) (local.get $t)) (v128.const i64x2 0 0))
              (br_if $zero (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 16))) (i32.const 1536))))
            (call $tile64 (local.get $k)
              (i32.add (local.get $left) (i32.mul (local.get $p) (local.get $ps)))
              (i32.add (local.get $right) (i32.mul (i32.shr_u (local.get $g) (i32.const 3)) (local.get $bs)))
              (local.get $bs) (local.get $scratch) (i32.const 192))
            (local.set $r (i32.const 0))
            (block $done_r (loop $loop_r
              (br_if $done_r (i32.ge_u (local.get $r) (i32.const 8)))
              (br_if $done_r (i32.ge_u (i32.add (local.get $r0) (local.get $r)) (local.get $rows)))
              (local.set $j (i32.const 0))
              (block $done_j (loop $loop_j
                (br_if $done_j (i32.ge_u (local.get $j) (local.get $w)))
                (local.set $t (i32.add (local.get $x) (i32.shl (i32.add
                  (i32.mul (i32.add (local.get $r0) (local.get $r)) (local.get $ldx))
                  (i32.add (local.get $g) (local.get $j))) (i32.const 3))))
                (f64.store (local.get $t) (f64.add (f64.load (local.get $t))
                  (f64.load (i32.add (local.get $scratch)
                    (i32.shl (i32.add (i32.mul (local.get $r) (i32.const 24)) (local.get $j)) (i32.const 3))))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $loop_j)))
              (local.set $r (i32.add (local.get $r) (i32.const 1)))
              (br $loop_r)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $loop_p)))
      (local.set $g (i32.add (local.get $g) (i32.const 24)))
      (br $loop_g)))
  )

  ;; mul4x8 sets the 4×8 float32 block at c (rows ldc bytes apart) to the
  ;; sums over l < k of the 4 values a + r·lda + 4l times the 8 at b + 32l
  ;; (a row of an 8-column strip), each from zero in increasing l with a
  ;; rounded product and sum: Go's mul4x8F32.
  (func $mul4x8 (param $k i32) (param $a i32) (param $lda i32) (param $b i32) (param $c i32) (param $ldc i32)
    (local $end i32) (local $a1 i32) (local $a2 i32) (local $a3 i32) (local $b0 v128) (local $b1 v128) (local $x v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local.set $a1 (i32.add (local.get $a) (local.get $lda)))
    (local.set $a2 (i32.add (local.get $a1) (local.get $lda)))
    (local.set $a3 (i32.add (local.get $a2) (local.get $lda)))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 2))))
    (if (i32.lt_u (local.get $a) (local.get $end)) (then
      (loop $one
      (local.set $b0 (v128.load offset=0 (local.get $b)))
      (local.set $b1 (v128.load offset=16 (local.get $b)))
      (local.set $x (v128.load32_splat offset=0 (local.get $a)))
      (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=0 (local.get $a1)))
      (local.set $c10 (f32x4.add (local.get $c10) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c11 (f32x4.add (local.get $c11) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=0 (local.get $a2)))
      (local.set $c20 (f32x4.add (local.get $c20) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c21 (f32x4.add (local.get $c21) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=0 (local.get $a3)))
      (local.set $c30 (f32x4.add (local.get $c30) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c31 (f32x4.add (local.get $c31) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $a (i32.add (local.get $a) (i32.const 4)))
      (local.set $a1 (i32.add (local.get $a1) (i32.const 4)))
      (local.set $a2 (i32.add (local.get $a2) (i32.const 4)))
      (local.set $a3 (i32.add (local.get $a3) (i32.const 4)))
      (local.set $b (i32.add (local.get $b) (i32.const 32)))
      (br_if $one (i32.lt_u (local.get $a) (local.get $end))))))
    (v128.store offset=0 (local.get $c) (local.get $c00))
    (v128.store offset=16 (local.get $c) (local.get $c01))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (local.get $c10))
    (v128.store offset=16 (local.get $c) (local.get $c11))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (local.get $c20))
    (v128.store offset=16 (local.get $c) (local.get $c21))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (local.get $c30))
    (v128.store offset=16 (local.get $c) (local.get $c31))
  )

  ;; strips32 sets rows (a multiple of 4) rows of the float32 c (m values a
  ;; row) to a·B, a's rows k values apart, B packed in strips of 8 columns
  ;; (k rows of 8 each, ⌈m/8⌉ strips): core/linalg's mul32StripPanels (the
  ;; features' projections, Weights32.Mul) for its rows in groups of four.
  ;; A last strip narrower than 8 is computed into scratch (32 float32).
  (func (export "strips32") (param $k i32) (param $m i32) (param $rows i32) (param $a i32) (param $bp i32) (param $c i32) (param $scratch i32)
    (local $q i32) (local $ns i32) (local $j i32) (local $w i32) (local $i i32) (local $pb i32) (local $r i32) (local $t i32) (local $src i32) (local $dst i32)
    (local.set $ns (i32.shr_u (i32.add (local.get $m) (i32.const 7)) (i32.const 3)))
    (block $done_q (loop $loop_q
      (br_if $done_q (i32.ge_u (local.get $q) (local.get $ns)))
      (local.set $j (i32.shl (local.get $q) (i32.const 3)))
      (local.set $w (i32.sub (local.get $m) (local.get $j)))
      (if (i32.gt_u (local.get $w) (i32.const 8)) (then (local.set $w (i32.const 8))))
      (local.set $pb (i32.add (local.get $bp) (i32.shl (i32.mul (local.get $q) (local.get $k)) (i32.const 5))))
      (local.set $i (i32.const 0))
      (block $done_i (loop $loop_i
        (br_if $done_i (i32.ge_u (local.get $i) (local.get $rows)))
        (if (i32.eq (local.get $w) (i32.const 8))
          (then (call $mul4x8 (local.get $k) (i32.add (local.get $a) (i32.shl (i32.mul (local.get $i) (local.get $k)) (i32.const 2)))
            (i32.shl (local.get $k) (i32.const 2)) (local.get $pb)
            (i32.add (local.get $c) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $m)) (local.get $j)) (i32.const 2)))
            (i32.shl (local.get $m) (i32.const 2))))
          (else
            (call $mul4x8 (local.get $k) (i32.add (local.get $a) (i32.shl (i32.mul (local.get $i) (local.get $k)) (i32.const 2)))
              (i32.shl (local.get $k) (i32.const 2)) (local.get $pb) (local.get $scratch) (i32.const 32))
            (local.set $r (i32.const 0))
            (loop $rows_r
              (local.set $t (i32.const 0))
              (loop $cols_t
                (i32.store (i32.add (local.get $c) (i32.shl (i32.add (i32.mul (i32.add (local.get $i) (local.get $r)) (local.get $m))
                    (i32.add (local.get $j) (local.get $t))) (i32.const 2)))
                  (i32.load (i32.add (local.get $scratch) (i32.shl (i32.add (i32.shl (local.get $r) (i32.const 3)) (local.get $t)) (i32.const 2)))))
                (br_if $cols_t (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 1))) (local.get $w))))
              (br_if $rows_r (i32.lt_u (local.tee $r (i32.add (local.get $r) (i32.const 1))) (i32.const 4))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $loop_i)))
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (br $loop_q)))
  )

  ;; mm4x4 sets the 4×4 block at c (rows ldc bytes apart) to the sums over
  ;; l < k of the products of a + r·lda + 8l (row r of A, in place) and the 4
  ;; values at b + l·ldb (row l of B, in place), each from zero (from the
  ;; block's own values when add is set) in increasing l, each product and
  ;; sum rounded: mulPortable's entries, gemmPortable's with add.
  (func $mm4x4 (param $k i32) (param $a i32) (param $lda i32) (param $b i32) (param $ldb i32) (param $c i32) (param $ldc i32) (param $add i32)
    (local $end i32) (local $a1 i32) (local $a2 i32) (local $a3 i32) (local $b0 v128) (local $b1 v128) (local $x v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (if (local.get $add) (then
      (local.set $c00 (v128.load offset=0 (local.get $c)))
      (local.set $c01 (v128.load offset=16 (local.get $c)))
      (local.set $c10 (v128.load offset=0 (i32.add (local.get $c) (local.get $ldc))))
      (local.set $c11 (v128.load offset=16 (i32.add (local.get $c) (local.get $ldc))))
      (local.set $c20 (v128.load offset=0 (i32.add (local.get $c) (i32.shl (local.get $ldc) (i32.const 1)))))
      (local.set $c21 (v128.load offset=16 (i32.add (local.get $c) (i32.shl (local.get $ldc) (i32.const 1)))))
      (local.set $c30 (v128.load offset=0 (i32.add (local.get $c) (i32.mul (local.get $ldc) (i32.const 3)))))
      (local.set $c31 (v128.load offset=16 (i32.add (local.get $c) (i32.mul (local.get $ldc) (i32.const 3)))))))
    (local.set $a1 (i32.add (local.get $a) (local.get $lda)))
    (local.set $a2 (i32.add (local.get $a1) (local.get $lda)))
    (local.set $a3 (i32.add (local.get $a2) (local.get $lda)))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 3))))
    (if (i32.lt_u (local.get $a) (local.get $end)) (then
      (loop $one
      (local.set $b0 (v128.load offset=0 (local.get $b)))
      (local.set $b1 (v128.load offset=16 (local.get $b)))
      (local.set $x (v128.load64_splat offset=0 (local.get $a)))
      (local.set $c00 (f64x2.add (local.get $c00) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c01 (f64x2.add (local.get $c01) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load64_splat offset=0 (local.get $a1)))
      (local.set $c10 (f64x2.add (local.get $c10) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c11 (f64x2.add (local.get $c11) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load64_splat offset=0 (local.get $a2)))
      (local.set $c20 (f64x2.add (local.get $c20) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c21 (f64x2.add (local.get $c21) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load64_splat offset=0 (local.get $a3)))
      (local.set $c30 (f64x2.add (local.get $c30) (f64x2.mul (local.get $x) (local.get $b0))))
      (local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $x) (local.get $b1))))
      (local.set $b (i32.add (local.get $b) (local.get $ldb)))
      (local.set $a (i32.add (local.get $a) (i32.const 8)))
      (local.set $a1 (i32.add (local.get $a1) (i32.const 8)))
      (local.set $a2 (i32.add (local.get $a2) (i32.const 8)))
      (local.set $a3 (i32.add (local.get $a3) (i32.const 8)))
      (br_if $one (i32.lt_u (local.get $a) (local.get $end))))))
    (v128.store offset=0 (local.get $c) (local.get $c00))
    (v128.store offset=16 (local.get $c) (local.get $c01))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (local.get $c10))
    (v128.store offset=16 (local.get $c) (local.get $c11))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (local.get $c20))
    (v128.store offset=16 (local.get $c) (local.get $c21))
    (local.set $c (i32.add (local.get $c) (local.get $ldc)))
    (v128.store offset=0 (local.get $c) (local.get $c30))
    (v128.store offset=16 (local.get $c) (local.get $c31))
  )


  ;; mm1x2 sets the 2 values at c to the sums over l < k of the value at
  ;; a + 8l times the 2 at b + l·ldb, and mm1x1 the value at c: gemm64's
  ;; last columns and rows, in the same order of sums as mm4x4 (from c's
  ;; values when add is set).
  (func $mm1x2 (param $k i32) (param $a i32) (param $b i32) (param $ldb i32) (param $c i32) (param $add i32)
    (local $end i32) (local $s v128)
    (if (local.get $add) (then (local.set $s (v128.load (local.get $c)))))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 3))))
    (if (i32.lt_u (local.get $a) (local.get $end)) (then
      (loop $l
        (local.set $s (f64x2.add (local.get $s) (f64x2.mul (v128.load64_splat (local.get $a)) (v128.load (local.get $b)))))
        (local.set $b (i32.add (local.get $b) (local.get $ldb)))
        (br_if $l (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 8))) (local.get $end))))))
    (v128.store (local.get $c) (local.get $s)))

  (func $mm1x1 (param $k i32) (param $a i32) (param $b i32) (param $ldb i32) (param $c i32) (param $add i32)
    (local $end i32) (local $s f64)
    (if (local.get $add) (then (local.set $s (f64.load (local.get $c)))))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 3))))
    (if (i32.lt_u (local.get $a) (local.get $end)) (then
      (loop $l
        (local.set $s (f64.add (local.get $s) (f64.mul (f64.load (local.get $a)) (f64.load (local.get $b)))))
        (local.set $b (i32.add (local.get $b) (local.get $ldb)))
        (br_if $l (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 8))) (local.get $end))))))
    (f64.store (local.get $c) (local.get $s)))

  ;; mul64 sets the rows×m float64 c to a·b (a rows×k, b k×m, all
  ;; row-major, contiguous and read in place): linalg.Mul's rows with
  ;; mulPortable's bits.
  (func (export "mul64") (param $rows i32) (param $k i32) (param $m i32) (param $a i32) (param $b i32) (param $c i32)
    (call $gemm (local.get $rows) (local.get $k) (local.get $m)
      (local.get $a) (i32.shl (local.get $k) (i32.const 3)) (local.get $b) (i32.shl (local.get $m) (i32.const 3))
      (local.get $c) (i32.shl (local.get $m) (i32.const 3)) (i32.const 0)))

  ;; gemm64 sets the rows×m float64 c to a·b, or adds a·b to it when add is
  ;; set (a rows×k, b k×m, c rows×m, row-major with strides lda, ldb, ldc
  ;; in values): core/linalg's gemm with gemmPortable's bits, each entry
  ;; summed from zero or from c in increasing inner index.
  (func (export "gemm64") (param $rows i32) (param $k i32) (param $m i32) (param $a i32) (param $lda i32)
    (param $b i32) (param $ldb i32) (param $c i32) (param $ldc i32) (param $add i32)
    (call $gemm (local.get $rows) (local.get $k) (local.get $m)
      (local.get $a) (i32.shl (local.get $lda) (i32.const 3)) (local.get $b) (i32.shl (local.get $ldb) (i32.const 3))
      (local.get $c) (i32.shl (local.get $ldc) (i32.const 3)) (local.get $add)))

  ;; gemm is mul64's and gemm64's product, the strides in bytes: 4×4 blocks
  ;; over strips of 128 columns of b, so that a strip's k rows stay in
  ;; cache while every four rows of a pass over it; then the last m mod 4
  ;; columns and rows mod 4 rows, two columns at a time.
  (func $gemm (param $rows i32) (param $k i32) (param $m i32) (param $a i32) (param $lda i32)
    (param $b i32) (param $ldb i32) (param $c i32) (param $ldc i32) (param $add i32)
    (local $r4 i32) (local $m4 i32) (local $j0 i32) (local $j1 i32)
    (local $i i32) (local $j i32) (local $ai i32) (local $ci i32)
    (local.set $r4 (i32.and (local.get $rows) (i32.const -4)))
    (local.set $m4 (i32.and (local.get $m) (i32.const -4)))
    (block $done_j0 (loop $loop_j0
      (br_if $done_j0 (i32.ge_u (local.get $j0) (local.get $m4)))
      (local.set $j1 (i32.add (local.get $j0) (i32.const 128)))
      (if (i32.gt_u (local.get $j1) (local.get $m4)) (then (local.set $j1 (local.get $m4))))
      (local.set $i (i32.const 0))
      (block $done_i (loop $loop_i
        (br_if $done_i (i32.ge_u (local.get $i) (local.get $r4)))
        (local.set $ai (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $lda))))
        (local.set $ci (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $ldc))))
        (local.set $j (local.get $j0))
        (loop $loop_j
          (call $mm4x4 (local.get $k) (local.get $ai) (local.get $lda)
            (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 3))) (local.get $ldb)
            (i32.add (local.get $ci) (i32.shl (local.get $j) (i32.const 3))) (local.get $ldc) (local.get $add))
          (br_if $loop_j (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 4))) (local.get $j1))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $loop_i)))
      (local.set $j0 (local.get $j1))
      (br $loop_j0)))
    ;; Columns [m4, m) of rows [0, r4), every column of rows [r4, rows).
    (local.set $i (i32.const 0))
    (block $done_t (loop $loop_t
      (br_if $done_t (i32.ge_u (local.get $i) (local.get $rows)))
      (local.set $j (local.get $m4))
      (if (i32.ge_u (local.get $i) (local.get $r4)) (then (local.set $j (i32.const 0))))
      (local.set $ai (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $lda))))
      (local.set $ci (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $ldc))))
      (block $done_p (loop $loop_p
        (br_if $done_p (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $m)))
        (call $mm1x2 (local.get $k) (local.get $ai) (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 3)))
          (local.get $ldb) (i32.add (local.get $ci) (i32.shl (local.get $j) (i32.const 3))) (local.get $add))
        (local.set $j (i32.add (local.get $j) (i32.const 2)))
        (br $loop_p)))
      (if (i32.lt_u (local.get $j) (local.get $m)) (then
        (call $mm1x1 (local.get $k) (local.get $ai) (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 3)))
          (local.get $ldb) (i32.add (local.get $ci) (i32.shl (local.get $j) (i32.const 3))) (local.get $add))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $loop_t)))
  )

  ;; symv64 adds to y the contributions of rows r0 … r1−1 of the symmetric
  ;; matrix whose upper triangle is the m×m row-major a, restricted to rows
  ;; and columns lo … m−1, to its product with x (x and y indexed from lo):
  ;; core/linalg's symvRows (the one-stage reduction's products), each row
  ;; one pass over a[r, r+1:] as dotAxpySIMD makes it (y += x_r·a, the dot
  ;; product in partial sums s0 s1 | s2 s3 over the entries in fours, the
  ;; rest added to s0, then (s0+s1) + (s2+s3)), then
  ;; y_r += a_rr·x_r + dot.
  (func (export "symv64") (param $m i32) (param $lo i32) (param $r0 i32) (param $r1 i32) (param $a i32) (param $x i32) (param $y i32)
    (local $r i32) (local $p i32) (local $px i32) (local $py i32) (local $end i32) (local $tail i32)
    (local $xr f64) (local $sv v128) (local $s01 v128) (local $s23 v128) (local $a01 v128) (local $a23 v128)
    (local $s0 f64) (local $v f64) (local $yr i32)
    (local.set $r (local.get $r0))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $r) (local.get $r1)))
      ;; p = &a[r·m + r], px = &x[r − lo], py = &y[r − lo]
      (local.set $p (i32.add (local.get $a) (i32.shl (i32.add (i32.mul (local.get $r) (local.get $m)) (local.get $r)) (i32.const 3))))
      (local.set $yr (i32.add (local.get $y) (i32.shl (i32.sub (local.get $r) (local.get $lo)) (i32.const 3))))
      (local.set $px (i32.add (local.get $x) (i32.shl (i32.sub (local.get $r) (local.get $lo)) (i32.const 3))))
      (local.set $xr (f64.load (local.get $px)))
      (local.set $sv (f64x2.splat (local.get $xr)))
      (local.set $s01 (v128.const i64x2 0 0))
      (local.set $s23 (v128.const i64x2 0 0))
      ;; the row past its diagonal: entries r+1 … m−1, in fours then one by one
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (local.set $px (i32.add (local.get $px) (i32.const 8)))
      (local.set $py (i32.add (local.get $yr) (i32.const 8)))
      (local.set $tail (i32.add (local.get $p) (i32.shl (i32.sub (i32.sub (local.get $m) (local.get $r)) (i32.const 1)) (i32.const 3))))
      (local.set $end (i32.add (local.get $p) (i32.shl (i32.and (i32.sub (i32.sub (local.get $m) (local.get $r)) (i32.const 1)) (i32.const -4)) (i32.const 3))))
      (if (i32.lt_u (local.get $p) (local.get $end)) (then
        (loop $fours
          (local.set $a01 (v128.load offset=0 (local.get $p)))
          (local.set $a23 (v128.load offset=16 (local.get $p)))
          (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $a01) (v128.load offset=0 (local.get $px)))))
          (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (local.get $a23) (v128.load offset=16 (local.get $px)))))
          (v128.store offset=0 (local.get $py) (f64x2.add (v128.load offset=0 (local.get $py)) (f64x2.mul (local.get $a01) (local.get $sv))))
          (v128.store offset=16 (local.get $py) (f64x2.add (v128.load offset=16 (local.get $py)) (f64x2.mul (local.get $a23) (local.get $sv))))
          (local.set $px (i32.add (local.get $px) (i32.const 32)))
          (local.set $py (i32.add (local.get $py) (i32.const 32)))
          (br_if $fours (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 32))) (local.get $end))))))
      (local.set $s0 (f64x2.extract_lane 0 (local.get $s01)))
      (if (i32.lt_u (local.get $p) (local.get $tail)) (then
        (loop $ones
          (local.set $v (f64.load (local.get $p)))
          (local.set $s0 (f64.add (local.get $s0) (f64.mul (local.get $v) (f64.load (local.get $px)))))
          (f64.store (local.get $py) (f64.add (f64.load (local.get $py)) (f64.mul (local.get $v) (local.get $xr))))
          (local.set $px (i32.add (local.get $px) (i32.const 8)))
          (local.set $py (i32.add (local.get $py) (i32.const 8)))
          (br_if $ones (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 8))) (local.get $tail))))))
      ;; y_r += a_rr·x_r + ((s0+s1) + (s2+s3))
      (f64.store (local.get $yr) (f64.add (f64.load (local.get $yr))
        (f64.add (f64.mul (f64.load (i32.add (local.get $a) (i32.shl (i32.add (i32.mul (local.get $r) (local.get $m)) (local.get $r)) (i32.const 3))))
          (local.get $xr))
          (f64.add (f64.add (local.get $s0) (f64x2.extract_lane 1 (local.get $s01)))
            (f64.add (f64x2.extract_lane 0 (local.get $s23)) (f64x2.extract_lane 1 (local.get $s23)))))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rows)))
  )

  ;; reflect64 applies H = I − τuuᵀ to rows rows of n values at p, ld bytes
  ;; apart (u: n values): r ← r + (−τ·(r·u))·u, as core/linalg's
  ;; reflectEach does on WebAssembly: the dot product as its dot forms it
  ;; (partial sums s0 s1 | s2 s3 over the entries in fours, the rest added
  ;; to s0, then (s0+s1) + (s2+s3)), the update as its axpy (pairs, then
  ;; the last entry).
  (func $reflect64 (param $p i32) (param $ld i32) (param $rows i32) (param $u i32) (param $n i32) (param $tau f64)
    (local $i i32) (local $e4 i32) (local $e2 i32) (local $en i32) (local $end i32)
    (local $s01 v128) (local $s23 v128) (local $s0 f64) (local $sc f64) (local $sv v128)
    (local.set $e4 (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 3)))
    (local.set $e2 (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3)))
    (local.set $en (i32.shl (local.get $n) (i32.const 3)))
    (local.set $end (i32.add (local.get $p) (i32.mul (local.get $rows) (local.get $ld))))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $s01 (v128.const i64x2 0 0))
      (local.set $s23 (v128.const i64x2 0 0))
      (local.set $i (i32.const 0))
      (block $d4 (loop $fours
        (br_if $d4 (i32.ge_u (local.get $i) (local.get $e4)))
        (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul
          (v128.load (i32.add (local.get $p) (local.get $i))) (v128.load (i32.add (local.get $u) (local.get $i))))))
        (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul
          (v128.load offset=16 (i32.add (local.get $p) (local.get $i))) (v128.load offset=16 (i32.add (local.get $u) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $fours)))
      (local.set $s0 (f64x2.extract_lane 0 (local.get $s01)))
      (block $d1 (loop $ones
        (br_if $d1 (i32.ge_u (local.get $i) (local.get $en)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul
          (f64.load (i32.add (local.get $p) (local.get $i))) (f64.load (i32.add (local.get $u) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $ones)))
      ;; −τ · ((s0+s1) + (s2+s3))
      (local.set $sc (f64.mul (f64.neg (local.get $tau))
        (f64.add (f64.add (local.get $s0) (f64x2.extract_lane 1 (local.get $s01)))
          (f64.add (f64x2.extract_lane 0 (local.get $s23)) (f64x2.extract_lane 1 (local.get $s23))))))
      (local.set $sv (f64x2.splat (local.get $sc)))
      (local.set $i (i32.const 0))
      (block $d2 (loop $pairs
        (br_if $d2 (i32.ge_u (local.get $i) (local.get $e2)))
        (v128.store (i32.add (local.get $p) (local.get $i)) (f64x2.add
          (v128.load (i32.add (local.get $p) (local.get $i)))
          (f64x2.mul (v128.load (i32.add (local.get $u) (local.get $i))) (local.get $sv))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $pairs)))
      (if (i32.lt_u (local.get $i) (local.get $en)) (then
        (f64.store (i32.add (local.get $p) (local.get $i)) (f64.add
          (f64.load (i32.add (local.get $p) (local.get $i)))
          (f64.mul (local.get $sc) (f64.load (i32.add (local.get $u) (local.get $i))))))))
      (local.set $p (i32.add (local.get $p) (local.get $ld)))
      (br $rows)))
  )

  ;; chase64 applies to the rows rows of xt (m values each: columns of x,
  ;; transposed) the reflectors of the bulge chase that core/linalg's
  ;; chaseRows applies, in its order: sweeps s = m−3 … 0, in each the
  ;; blocks j from its last to its first, τ = tau2[start(s) + j] (start(s)
  ;; = Σ over t < s of ⌈(m−1−t)/nb⌉; skipped where τ = 0), u the n values of
  ;; a's row m−1−s from column i0−s−1, on entries i0 … i0+n−1 of each row:
  ;; i0 = s+1 and n = min(nb, m−1−s) for j = 0, else i0 = s+1+n1+(j−1)·nb
  ;; and n = min(nb, m−i0). One call per group of columns.
  (func (export "chase64") (param $m i32) (param $nb i32) (param $a i32) (param $tau2 i32) (param $xt i32) (param $rows i32)
    (local $s i32) (local $start i32) (local $cnt i32) (local $j i32) (local $row i32) (local $n1 i32)
    (local $i0 i32) (local $n i32) (local $tau f64) (local $w i32)
    ;; start = the number of τ of all the sweeps (s = 0 … m−3)
    (block $summed (loop $sum
      (br_if $summed (i32.ge_s (local.get $s) (i32.sub (local.get $m) (i32.const 2))))
      (local.set $start (i32.add (local.get $start)
        (i32.div_u (i32.add (i32.sub (i32.sub (local.get $m) (i32.const 1)) (local.get $s)) (i32.sub (local.get $nb) (i32.const 1))) (local.get $nb))))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br $sum)))
    (block $swept (loop $sweeps
      (br_if $swept (i32.le_s (local.get $s) (i32.const 0)))
      (local.set $s (i32.sub (local.get $s) (i32.const 1)))
      ;; w = m−1−s, the length of sweep s; its ⌈w/nb⌉ τ start at start
      (local.set $w (i32.sub (i32.sub (local.get $m) (i32.const 1)) (local.get $s)))
      (local.set $cnt (i32.div_u (i32.add (local.get $w) (i32.sub (local.get $nb) (i32.const 1))) (local.get $nb)))
      (local.set $start (i32.sub (local.get $start) (local.get $cnt)))
      (local.set $row (i32.add (local.get $a) (i32.shl (i32.mul (local.get $w) (local.get $m)) (i32.const 3))))
      (local.set $n1 (select (local.get $nb) (local.get $w) (i32.lt_s (local.get $nb) (local.get $w))))
      (local.set $j (local.get $cnt))
      (block $blocked (loop $blocks
        (br_if $blocked (i32.eqz (local.get $j)))
        (local.set $j (i32.sub (local.get $j) (i32.const 1)))
        (local.set $tau (f64.load (i32.add (local.get $tau2) (i32.shl (i32.add (local.get $start) (local.get $j)) (i32.const 3)))))
        (if (f64.ne (local.get $tau) (f64.const 0)) (then
          (if (i32.eqz (local.get $j))
            (then
              (local.set $i0 (i32.add (local.get $s) (i32.const 1)))
              (local.set $n (local.get $n1)))
            (else
              (local.set $i0 (i32.add (i32.add (i32.add (local.get $s) (i32.const 1)) (local.get $n1))
                (i32.mul (i32.sub (local.get $j) (i32.const 1)) (local.get $nb))))
              (local.set $n (select (local.get $nb) (i32.sub (local.get $m) (local.get $i0))
                (i32.lt_s (local.get $nb) (i32.sub (local.get $m) (local.get $i0)))))))
          (call $reflect64
            (i32.add (local.get $xt) (i32.shl (local.get $i0) (i32.const 3)))
            (i32.shl (local.get $m) (i32.const 3))
            (local.get $rows)
            (i32.add (local.get $row) (i32.shl (i32.sub (i32.sub (local.get $i0) (local.get $s)) (i32.const 1)) (i32.const 3)))
            (local.get $n)
            (local.get $tau))))
        (br $blocks)))
      (br $sweeps)))
  )

)
