package data

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzOptions decodes the option byte of FuzzParse.
func fuzzOptions(o byte) Options {
	opt := Options{MaxBytes: 1 << 20}
	if o&1 != 0 {
		opt.Missing = "drop"
	}
	opt.Header = []string{"", "yes", "no", "auto"}[o>>1&3]
	opt.Task = []string{"", Classification, Regression, "auto"}[o>>3&3]
	opt.Delimiter = []rune{0, 0, ';', '\t'}[o>>5&3]
	if o&0x80 != 0 {
		opt.Target = "0"
	}
	return opt
}

// hangLimit flags a hang, not slowness: fuzz inputs are at most 1 MiB,
// which the linear parser reads in well under a second even in wasm.
const hangLimit = 10 * time.Second

// fuzzSeeds cuts every shared file at a few points and mutates the cuts:
// flipped bytes, other delimiters, a stray quote, CR line endings, gzip.
func fuzzSeeds(f *testing.F) [][]byte {
	files, err := filepath.Glob(filepath.Join(sharedDir, "*.csv"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed files in %s: %v", sharedDir, err)
	}
	var seeds [][]byte
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, cut := range []int{100, 700, 3000} {
			p := b[:min(cut, len(b))]
			seeds = append(seeds, p)
			flipped := bytes.Clone(p)
			for i := 7; i < len(flipped); i += 97 {
				flipped[i] ^= 0x5a
			}
			seeds = append(seeds, flipped,
				bytes.ReplaceAll(p, []byte(","), []byte(";")),
				bytes.ReplaceAll(p, []byte(","), []byte("\t")),
				bytes.ReplaceAll(p, []byte("\n"), []byte("\r")),
				append(bytes.Clone(p[:len(p)/2]), append([]byte{'"'}, p[len(p)/2:]...)...))
		}
		seeds = append(seeds, gz(f, b[:min(1000, len(b))]))
	}
	return seeds
}

func FuzzParse(f *testing.F) {
	for i, s := range fuzzSeeds(f) {
		f.Add(s, byte(i))
	}
	f.Fuzz(func(t *testing.T, b []byte, o byte) {
		opt := fuzzOptions(o)
		start := time.Now()
		d, err := Parse(b, opt)
		if elapsed := time.Since(start); elapsed > hangLimit {
			t.Fatalf("Parse took %v on %d bytes", elapsed, len(b))
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "data: ") {
				t.Fatalf("error without prefix: %v", err)
			}
		} else {
			checkDataset(t, d, opt)
			if n, _ := d.X.Dims(); n > len(b) {
				t.Fatalf("%d rows from %d bytes", n, len(b))
			}
			s, err := Fit(d.X, d.Groups, Prep{Standardize: true, UnitNorm: true})
			if err != nil {
				t.Fatalf("Fit on parsed data: %v", err)
			}
			Z, err := s.Apply(nil, d.X)
			if err != nil {
				t.Fatalf("Apply on parsed data: %v", err)
			}
			for _, v := range Z.RawMatrix().Data {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("preprocessed X holds %v", v)
				}
			}
		}
		p, err := Preview(b, 3, opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "data: ") {
				t.Fatalf("preview error without prefix: %v", err)
			}
			return
		}
		if len(p.Rows) > 3 {
			t.Fatalf("preview of 3 rows has %d", len(p.Rows))
		}
		for _, r := range p.Rows {
			if len(r) != len(p.Names) {
				t.Fatalf("preview row %q for names %q", r, p.Names)
			}
		}
	})
}
