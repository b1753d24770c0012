package linalg

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"ntkrf/internal/fixture"
)

// serve runs ServeCholesky on the helper's end; its error arrives on the
// channel when it returns.
func serve(p Peer) chan error {
	done := make(chan error, 1)
	go func() { done <- ServeCholesky(p) }()
	return done
}

// spd is a positive definite m×m matrix AᵀA + I (upper triangle), with
// the lower triangle set to a marker the factorization must not touch.
func spd(m int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 3))
	x := randFloats(r, (m+3)*m)
	a := make([]float64, m*m)
	AddAtA(a, x, m+3, m)
	for i := range m {
		a[i*m+i]++
		for j := range i {
			a[i*m+j] = -7
		}
	}
	return a
}

// TestCholeskySharedBits holds the shared factorization to Cholesky's
// bits on orders where the last panel is the solver's or the helper's,
// whole or partial, and on two factorizations served by one helper.
func TestCholeskySharedBits(t *testing.T) {
	t.Parallel()
	// The last panel (q = ⌈m/256⌉ − 1) is, at 1,536, 1,829, 1,636 and
	// 2,048 rows: the helper's whole, the solver's partial, the helper's
	// partial and the solver's whole.
	sizes := []int{ShareMin, ShareMin + 256 + 37, ShareMin + 100, 2048}
	for i, m := range sizes {
		q := (m+choleskyBlock-1)/choleskyBlock - 1
		if whole := m%choleskyBlock == 0; helps(q) != (i%2 == 0) || whole != (i%3 == 0) {
			t.Fatalf("m=%d: the last panel is not the case it stands for", m)
		}
	}
	if testing.Short() {
		sizes = sizes[:2]
	}
	s, h := fixture.Pipes()
	done := serve(h)
	for i, m := range sizes {
		a := spd(m, uint64(i))
		want := append([]float64(nil), a...)
		if err := Cholesky(want, m); err != nil {
			t.Fatal(err)
		}
		if err := CholeskyShared(a, m, s); err != nil {
			t.Fatal(err)
		}
		fixture.SameBits(t, fmt.Sprintf("m=%d, shared against one instance", m), a, want)
	}
	if err := EndShare(s); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the helper: %v", err)
	}
}

// TestCholSolveSharedBits: the solve on a shared factorization is
// CholSolve's, bit for bit.
func TestCholSolveSharedBits(t *testing.T) {
	t.Parallel()
	m, k := ShareMin+300, 3
	a := spd(m, 9)
	b := randFloats(rand.New(rand.NewPCG(9, 9)), m*k)
	want, ok := CholSolve(append([]float64(nil), a...), m, b, k)
	if !ok {
		t.Fatal("CholSolve: not positive definite")
	}
	s, h := fixture.Pipes()
	done := serve(h)
	got, err := CholSolveShared(a, m, b, k, s)
	if err != nil {
		t.Fatal(err)
	}
	fixture.SameBits(t, "the solution", got.RawMatrix().Data, want.RawMatrix().Data)
	_ = EndShare(s)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestCholeskySharedNotPositiveDefinite: a pivot that fails in a panel
// after the first (the helper has updated the rows by then) is the
// solver's ErrNotPositiveDefinite; the helper drops the factorization and
// serves the next one.
func TestCholeskySharedNotPositiveDefinite(t *testing.T) {
	t.Parallel()
	m := ShareMin + 10
	a := spd(m, 4)
	a[600*m+600] = -1e9 // row 600: in the third panel, after two steps
	s, h := fixture.Pipes()
	done := serve(h)
	if err := CholeskyShared(a, m, s); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Fatalf("got %v, want ErrNotPositiveDefinite", err)
	}
	b := spd(m, 5)
	want := append([]float64(nil), b...)
	if err := Cholesky(want, m); err != nil {
		t.Fatal(err)
	}
	if err := CholeskyShared(b, m, s); err != nil {
		t.Fatal(err)
	}
	fixture.SameBits(t, "the factorization after one abandoned", b, want)
	_ = EndShare(s)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestServeCholeskyFaults: a helper given a message that does not fit
// tells the solver why and returns the error; a solver given a fault
// returns it.
func TestServeCholeskyFaults(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		msg  []byte
		want string
	}{
		{"empty", []byte{}, "an empty message"},
		{"unknown", []byte{'x'}, "unknown message"},
		{"step first", append([]byte{msgStep}, make([]byte, 16)...), "before the factorization started"},
		{"short start", []byte{msgStart, 1}, "a start of 1 bytes"},
		{"start size", append([]byte{msgStart, 0, 8, 0, 0, 0, 0, 0, 0}, 1, 2, 3), "are 3 bytes"},
	} {
		s, h := fixture.Pipes()
		done := serve(h)
		_ = s.Send(tc.msg)
		err := <-done
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: helper returned %v, want %q", tc.name, err, tc.want)
		}
		reply, _ := s.Recv()
		if ferr := fault(reply, msgTheirs); ferr == nil || !strings.Contains(ferr.Error(), "the helper failed") || !strings.Contains(ferr.Error(), tc.want) {
			t.Errorf("%s: the solver reads %v", tc.name, ferr)
		}
	}
	// A step of the wrong size, after a good start.
	m := ShareMin
	s, h := fixture.Pipes()
	done := serve(h)
	sh := &shared{peer: s}
	if err := sh.start(spd(m, 1), m); err != nil {
		t.Fatal(err)
	}
	step := binary.LittleEndian.AppendUint64([]byte{msgStep}, 0)
	step = binary.LittleEndian.AppendUint64(step, choleskyBlock)
	_ = s.Send(append(step, make([]byte, 8)...))
	if err := <-done; err == nil || !strings.Contains(err.Error(), "U₁₁") {
		t.Errorf("a short step: %v", err)
	}
}

// TestCholeskySharedSmall: below ShareMin nothing is sent; the peer
// stays the caller's to end.
func TestCholeskySharedSmall(t *testing.T) {
	m := ShareMin - 1
	a := spd(m, 2)
	want := append([]float64(nil), a...)
	if err := Cholesky(want, m); err != nil {
		t.Fatal(err)
	}
	s, _ := fixture.Pipes()
	if err := CholeskyShared(a, m, s); err != nil {
		t.Fatal(err)
	}
	fixture.SameBits(t, "below ShareMin", a, want)
	if n := s.Sent(); n != 0 {
		t.Errorf("%d messages sent", n)
	}
}

// BenchmarkCholeskyShared_M2048: one instance against two (the helper on
// a goroutine; natively both sides' kernels use every core, so this
// measures the protocol's cost more than its gain, which is WebAssembly's).
func BenchmarkCholeskyShared_M2048(b *testing.B) {
	m := 2048
	base := spd(m, 1)
	a := make([]float64, m*m)
	for _, shared := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared=%v", shared), func(b *testing.B) {
			s, h := fixture.Pipes()
			var done chan error
			if shared {
				done = serve(h)
			}
			for range b.N {
				b.StopTimer()
				copy(a, base)
				b.StartTimer()
				var err error
				if shared {
					err = CholeskyShared(a, m, s)
				} else {
					err = Cholesky(a, m)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(m)*float64(m)*float64(m)/3/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFLOP/s")
			if shared {
				_ = EndShare(s)
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
