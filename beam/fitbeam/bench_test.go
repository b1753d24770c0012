package fitbeam

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// cpu is the process's user + system CPU time: prism runs in-process, so
// a Beam fit's workers, runner and coders are all counted.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeap samples the Go heap in use while f runs and returns its peak.
func peakHeap(f func()) uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	return peak.Load()
}

func init() { beam.RegisterFunction(idle) }

func idle(x int) int { time.Sleep(10 * time.Second); return x }

// prismBurn is the CPU prism spends, per second of wall time, running a
// pipeline whose one element sleeps 10 s: the runner's own polling, paid
// for as long as a pipeline runs (on a cluster the runner is elsewhere).
func prismBurn(b *testing.B) float64 {
	c0, w0 := cpu(), time.Now()
	p, s := beam.NewPipelineWithRoot()
	beam.ParDo(s, idle, beam.Create(s, 1))
	if err := ptest.Run(p); err != nil {
		b.Fatal(err)
	}
	return (cpu() - c0).Seconds() / time.Since(w0).Seconds()
}

// benchShards writes shards × rows rows of 20 columns (4 classes) as CSV.
func benchShards(b *testing.B, dir string, shards, rows int) []byte {
	X, y := fixture.Data(shards*rows, 20, 4, 9)
	header := "c0,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,c16,c17,c18,c19,y\n"
	var whole strings.Builder
	whole.WriteString(header)
	for s := range shards {
		var sb strings.Builder
		sb.WriteString(header)
		for i := s * rows; i < (s+1)*rows; i++ {
			for _, v := range X.RawRowView(i) {
				sb.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Itoa(int(y[i])))
			sb.WriteByte('\n')
		}
		whole.WriteString(sb.String()[len(header):])
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%03d.csv", s)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return []byte(whole.String())
}

// BenchmarkBeamVsSingle fits the same rows (8 shards of 20 columns, 4
// classes, λ fixed) on prism and in one process, side by side in one run,
// at m = 1024 and 4096, and prints the CPU and wall ratios, the per-row
// CPU of featurizing and summing, the merge's bytes and time, and the
// peak heap of each fit.
//
//	go test ./fitbeam -run '^$' -bench BeamVsSingle -benchtime 1x
func BenchmarkBeamVsSingle(b *testing.B) {
	burn := prismBurn(b)
	fmt.Printf("prism alone: %.2f s of CPU per second of wall time\n", burn)
	for _, c := range []struct{ m, rows int }{{1024, 4000}, {4096, 2500}} {
		b.Run(fmt.Sprintf("m=%d", c.m), func(b *testing.B) {
			dir := b.TempDir()
			whole := benchShards(b, dir, 8, c.rows)
			opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 1, Dim: c.m, Seed: 1}, Lambda: 1e-3, FanIn: 4}
			ds, err := data.Parse(whole, opt.Data)
			if err != nil {
				b.Fatal(err)
			}
			n := len(ds.Y)
			for range b.N {
				// Single process: FitDataset, and the featurize-and-sum
				// step alone (the per-row cost).
				c0, w0 := cpu(), time.Now()
				single := peakHeap(func() {
					cfg := pipeline.Config{Preprocess: opt.Prep, Features: opt.Features}
					cfg.Ridge.Lambda = opt.Lambda
					if _, err := pipeline.FitDataset(context.Background(), ds, cfg); err != nil {
						b.Fatal(err)
					}
				})
				singleCPU, singleWall := cpu()-c0, time.Since(w0)

				c0, w0 = cpu(), time.Now()
				beamHeap := peakHeap(func() {
					p, s := beam.NewPipelineWithRoot()
					Write(s, filepath.Join(b.TempDir(), "model.json"), FitFiles(s, filepath.Join(dir, "*.csv"), opt))
					if err := ptest.Run(p); err != nil {
						b.Fatal(err)
					}
				})
				beamCPU, beamWall := cpu()-c0, time.Since(w0)

				perRow, wire, mergeT := partCost(b, ds, opt)
				net := beamCPU.Seconds() - burn*beamWall.Seconds()
				fmt.Printf("m = %d: CPU Beam less prism's idle burn (%.2f × wall) %.1f s: %.2f× the single process\n", c.m, burn, net, net/singleCPU.Seconds())
				b.ReportMetric(beamCPU.Seconds()/singleCPU.Seconds(), "cpu-ratio")
				b.ReportMetric(beamWall.Seconds()/singleWall.Seconds(), "wall-ratio")
				b.ReportMetric(float64(perRow.Microseconds())/1000, "ms-cpu/row")
				fmt.Printf("m = %d, %d rows in 8 shards: CPU Beam (prism) %.1f s vs single process %.1f s (%.2f×); wall %.1f s vs %.1f s (%.2f×)\n",
					c.m, n, beamCPU.Seconds(), singleCPU.Seconds(), beamCPU.Seconds()/singleCPU.Seconds(), beamWall.Seconds(), singleWall.Seconds(), beamWall.Seconds()/singleWall.Seconds())
				fmt.Printf("m = %d: featurize and sum %.3f ms CPU per row; a part's wire form %.1f MB, encoded + merged from bytes in %.0f ms; peak heap: Beam %.0f MB, single process %.0f MB\n",
					c.m, float64(perRow.Microseconds())/1000, float64(wire)/1e6, float64(mergeT.Milliseconds()), float64(beamHeap)/1e6, float64(single)/1e6)
			}
		})
	}
}

// partCost measures, on ds, the CPU per row of a part's Add (featurize and
// sum), the size of a part's wire form, and the time to encode one and
// merge it into another from its bytes.
func partCost(b *testing.B, ds *data.Dataset, opt Options) (perRow time.Duration, wire int, merge time.Duration) {
	s := Settled{Schema: ds.Schema(), Rows: len(ds.Y)}
	plan, err := planOf(opt.spec(s))
	if err != nil {
		b.Fatal(err)
	}
	st := plan.NewStats()
	st.Add(ds.X)
	scaler, err := plan.Scaler(st)
	if err != nil {
		b.Fatal(err)
	}
	n := len(ds.Y)
	half := n / 2
	parts := make([]*pipeline.Part, 2)
	c0 := cpu()
	for i, r := range [][2]int{{0, half}, {half, n}} {
		parts[i], _ = plan.NewPart(scaler)
		X := ds.X.Slice(r[0], r[1], 0, ds.X.RawMatrix().Cols)
		if err := parts[i].Add(context.Background(), X.(*mat.Dense), ds.Y[r[0]:r[1]], r[0]); err != nil {
			b.Fatal(err)
		}
	}
	perRow = (cpu() - c0) / time.Duration(n)
	t0 := time.Now()
	bytes := parts[1].AppendBinary(nil)
	if err := parts[0].MergeBinary(bytes); err != nil {
		b.Fatal(err)
	}
	return perRow, len(bytes), time.Since(t0)
}
