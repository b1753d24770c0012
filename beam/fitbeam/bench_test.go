package fitbeam

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
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
	"ntkrf/core/protocol"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

var (
	benchDims    = flag.String("dims", "1024,4096", "BeamVsSingle: the feature dimensions m to compare at")
	benchShardsN = flag.String("shards", "8,2", "BeamVsSingle: the numbers of shards the same rows are split into")
	benchProfile = flag.String("beamprofile", "", "BeamVsSingle: write a CPU profile of the Beam fits alone (prism, workers, coders) to this file")
)

// cpu is the process's user + system CPU time: prism runs in-process, so
// a Beam fit's workers, runner and coders are all counted.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// load is the machine's load average over the last minute.
func load() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
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
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	return peak.Load()
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

// run is one fit's CPU, wall time and peak heap.
type run struct {
	cpu, wall time.Duration
	heap      uint64
}

func measure(f func()) run {
	c0, w0 := cpu(), time.Now()
	heap := peakHeap(f)
	return run{cpu() - c0, time.Since(w0), heap}
}

// BenchmarkBeamVsSingle fits the same rows (20 columns, 4 classes, ntk
// depth 1, λ fixed; 32,000 rows at m = 1024, 20,000 at m = 4096, in 8 and
// in 2 shards) on prism and in one process
// (pipeline.FitDataset), alternating which goes first, b.N times at each
// m, and prints for every pair the CPU (user + system of the process) and
// wall time of each with their ratios and the machine's load, the bytes
// of parts the merge moved, and the costs of a part: featurize and sum
// per row, encode, decode, merge from bytes.
//
//	go test ./fitbeam -run '^$' -bench BeamVsSingle -benchtime 3x -args -dims 1024,4096 -shards 8,2 [-beamprofile beam.prof]
func BenchmarkBeamVsSingle(b *testing.B) {
	if *benchProfile != "" {
		f, err := os.Create(*benchProfile)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		profileFile = f // started and stopped around the first Beam fit only
	}
	for _, dim := range strings.Split(*benchDims, ",") {
		m, err := strconv.Atoi(dim)
		if err != nil {
			b.Fatal(err)
		}
		rows := 32000
		if m >= 4096 {
			rows = 20000 // the single fit's m×m work stays minutes on 2 cores
		}
		for _, sh := range strings.Split(*benchShardsN, ",") {
			shards, err := strconv.Atoi(sh)
			if err != nil || shards < 1 {
				b.Fatalf("-shards %s", sh)
			}
			b.Run(fmt.Sprintf("m=%d/shards=%d", m, shards), func(b *testing.B) { beamVsSingle(b, m, shards, rows/shards) })
		}
	}
}

var profileFile *os.File

// profiling starts or stops the CPU profile of a Beam fit.
func profiling(on bool) {
	if profileFile == nil {
		return
	}
	if on {
		pprof.StartCPUProfile(profileFile)
	} else {
		pprof.StopCPUProfile()
	}
}

func beamVsSingle(b *testing.B, m, shards, rows int) {
	dir := b.TempDir()
	whole := benchShards(b, dir, shards, rows)
	opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 1, Dim: m, Seed: 1}, Lambda: 1e-3}
	ds, err := data.Parse(whole, opt.Data)
	if err != nil {
		b.Fatal(err)
	}
	// The single process as a user runs it: read the rows and parse them
	// (data.Parse, as the package's parseCSV), then FitDataset; its
	// parsing is timed apart too, for the fit alone.
	var parse time.Duration
	single := func() {
		c0 := cpu()
		var all []byte
		files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
		for i, f := range files {
			shard, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if i > 0 { // each shard's header once
				shard = shard[bytes.IndexByte(shard, '\n')+1:]
			}
			all = append(all, shard...)
		}
		read, err := data.Parse(all, opt.Data)
		if err != nil || len(read.Y) != len(ds.Y) {
			b.Fatalf("the shards read as one: %v", err)
		}
		parse = cpu() - c0
		cfg := pipeline.Config{Preprocess: opt.Prep, Features: opt.Features}
		cfg.Ridge.Lambda = opt.Lambda
		if _, err := pipeline.FitDataset(context.Background(), read, cfg); err != nil {
			b.Fatal(err)
		}
	}
	var moved int64
	onBeam := func() {
		p, s := beam.NewPipelineWithRoot()
		Write(s, filepath.Join(b.TempDir(), "model.json"), FitFiles(s, filepath.Join(dir, "*.csv"), opt))
		profiling(true)
		before := partBytes.Load()
		if err := ptest.Run(p); err != nil {
			b.Fatal(err)
		}
		moved = partBytes.Load() - before
		profiling(false)
		profileFile = nil // one Beam fit profiled
	}
	var sumS, sumB run
	for i := range b.N {
		var s, bm run
		ld := load()
		if i%2 == 0 {
			s, bm = measure(single), measure(onBeam)
		} else {
			bm, s = measure(onBeam), measure(single)
		}
		sumS.cpu, sumS.wall, sumB.cpu, sumB.wall = sumS.cpu+s.cpu, sumS.wall+s.wall, sumB.cpu+bm.cpu, sumB.wall+bm.wall
		fit := s.cpu - parse
		fmt.Printf("m = %d, %d rows in %d shards, load %s→%s: CPU Beam %.2f s / single %.2f s = %.2f× (single less parsing %.2f s: %.2f×); wall %.2f s / %.2f s = %.2f×; parts encoded %.1f MB; peak heap Beam %.0f MB, single %.0f MB\n",
			m, len(ds.Y), shards, ld, load(), bm.cpu.Seconds(), s.cpu.Seconds(), bm.cpu.Seconds()/s.cpu.Seconds(), fit.Seconds(), bm.cpu.Seconds()/fit.Seconds(),
			bm.wall.Seconds(), s.wall.Seconds(), bm.wall.Seconds()/s.wall.Seconds(), float64(moved)/1e6, float64(bm.heap)/1e6, float64(s.heap)/1e6)
	}
	b.ReportMetric(sumB.cpu.Seconds()/sumS.cpu.Seconds(), "cpu-ratio")
	b.ReportMetric(sumB.wall.Seconds()/sumS.wall.Seconds(), "wall-ratio")
	c := partCost(b, ds, opt)
	b.ReportMetric(c.perRow.Seconds()*1e3, "ms-cpu/row")
	fmt.Printf("m = %d: featurize and sum %.3f ms CPU per row; a part's wire form %.1f MB: encode %.0f ms, decode %.0f ms, merge from its bytes into another %.0f ms (CPU)\n",
		m, c.perRow.Seconds()*1e3, float64(c.wire)/1e6, c.encode.Seconds()*1e3, c.decode.Seconds()*1e3, c.merge.Seconds()*1e3)
}

// cost is what one part costs: featurize and sum per row, its form's
// size, and the CPU to encode it, decode it (the first part a merge
// takes) and merge it from its bytes into another (every other one).
type cost struct {
	perRow                time.Duration
	wire                  int
	encode, decode, merge time.Duration
}

// partCost measures, on ds, the costs of two parts of half the rows each.
func partCost(b *testing.B, ds *data.Dataset, opt Options) cost {
	s := Settled{Schema: ds.Schema(), Rows: len(ds.Y)}
	var err error
	if s.Plan, err = opt.plan(s.Schema, s.Rows); err != nil {
		b.Fatal(err)
	}
	plan, err := s.plan()
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
	parts := make([]*protocol.Part, 2)
	var c cost
	c0 := cpu()
	for i, r := range [][2]int{{0, half}, {half, n}} {
		parts[i], _ = plan.NewPart(scaler)
		X := ds.X.Slice(r[0], r[1], 0, ds.X.RawMatrix().Cols)
		if err := parts[i].Add(context.Background(), X.(*mat.Dense), ds.Y[r[0]:r[1]], r[0]); err != nil {
			b.Fatal(err)
		}
	}
	c.perRow = (cpu() - c0) / time.Duration(n)
	c0 = cpu()
	wire, err := encodePart(Part{of: Shard{Settled: s, Stats: Stats{st}}, p: parts[1]})
	if err != nil {
		b.Fatal(err)
	}
	c.encode, c0 = cpu()-c0, cpu()
	if _, err := decodePart(wire); err != nil {
		b.Fatal(err)
	}
	c.decode, c0 = cpu()-c0, cpu()
	into := Part{p: parts[0]}
	if err := into.merge(wire); err != nil {
		b.Fatal(err)
	}
	c.merge = cpu() - c0
	c.wire = len(wire)
	return c
}
