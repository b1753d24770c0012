package jsbridge

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/active"
	"ntkrf/core/data"
	"ntkrf/core/metrics"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// badFiles are inputs that every CSV reader must refuse for the same cause,
// with the code that cause has. The model they are predicted with was fitted
// on "a,b,y" with a numeric a and b.
func badFiles(t *testing.T) []struct {
	name string
	in   []byte
	code check.Code
} {
	t.Helper()
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(bytes.Repeat([]byte("a,b,y\n1,2,x\n"), 50))
	w.Close()
	damaged := bytes.Clone(gz.Bytes())
	damaged = damaged[:len(damaged)-12] // the end of the stream and its checksum lost
	header := bytes.Clone(gz.Bytes())
	header[3] = 0xff // reserved flag bits set
	return []struct {
		name string
		in   []byte
		code check.Code
	}{
		{"binary", make([]byte, 4096), check.Parse},
		{"UTF-16", append([]byte{0xff, 0xfe}, []byte("a\x00,\x00b\x00,\x00y\x00\n\x00")...), check.Parse},
		{"ZIP", []byte("PK\x03\x04rest of an xlsx"), check.Parse},
		{"not UTF-8", []byte("a,b,y\n1,2,\xff\n"), check.Parse},
		{"unclosed quote", []byte("a,b,y\n1,\"2,x\n3,4,y\n"), check.Parse},
		{"damaged gzip", damaged, check.Parse},
		{"damaged gzip header", header, check.Parse},
		{"ragged line", []byte("a,b,y\n1,2,x\n3,4\n"), check.Parse},
		{"header only", []byte("a,b,y\n"), check.Parse},
		{"empty", []byte("  \n"), check.Parse},
		{"number too large", []byte("a,b,y\n1e999,2,x\n3,4,y\n"), check.Parse},
		{"over maxBytes", bytes.Repeat([]byte("a,b,y\n"), 100), check.TooLarge},
	}
}

// TestSameCauseSameCode: a file refused for one cause gets one code in
// every entry point: data.Parse, data.Preview, Schema.Read,
// Pipeline.PredictCSV, and the operations parseCSV, previewCSV and
// predictCSV (the CLI is tested in cmd/ntkrf).
func TestSameCauseSameCode(t *testing.T) {
	t.Parallel()
	train := []byte("a,b,y\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n2,1,x\n4,3,y\n")
	ds, err := data.Parse(train, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{Features: rf.Config{Dim: 16, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	header, coef, _, err := p.Split()
	if err != nil {
		t.Fatal(err)
	}
	schema := ds.Schema()
	for _, tc := range badFiles(t) {
		maxBytes := 0
		if tc.code == check.TooLarge {
			maxBytes = 100
		}
		opt := data.Options{MaxBytes: maxBytes}
		limit := ""
		if maxBytes > 0 {
			limit = fmt.Sprintf(`,"maxBytes":%d`, maxBytes)
		}
		r, c := coef.Dims()
		args := fmt.Sprintf(`{"model":%s,"coef":{"rows":%d,"cols":%d,"array":0}%s}`, header, r, c, limit)
		got := map[string]error{}
		_, got["data.Parse"] = data.Parse(tc.in, opt)
		_, got["Schema.Read"] = schema.Read(tc.in, maxBytes)
		_, got["Pipeline.PredictCSV"] = p.PredictCSV(tc.in, maxBytes)
		_, _, got["parseCSV"] = Dispatch("parseCSV", []byte("{"+strings.TrimPrefix(limit, ",")+"}"), Input{Bytes: tc.in}, nil)
		_, _, got["predictCSV"] = Dispatch("predictCSV", []byte(args), Input{Bytes: tc.in, Arrays: [][]float64{coef.RawMatrix().Data}}, nil)
		if tc.name != "number too large" && tc.name != "header only" && tc.code != check.TooLarge {
			// A preview reads the first megabyte as text, not as numbers,
			// and shows a header without rows.
			_, got["data.Preview"] = data.Preview(tc.in, 10, opt)
			_, _, got["previewCSV"] = Dispatch("previewCSV", []byte("{"+strings.TrimPrefix(limit, ",")+"}"), Input{Bytes: tc.in}, nil)
		}
		for where, err := range got {
			if code := check.CodeOf(err); code != tc.code {
				t.Errorf("%s in %s: code %q (%v), want %s", tc.name, where, code, err, tc.code)
			}
		}
	}
}

// TestMessagesQuoteUserTextCapped: a huge cell or column name appears in a
// message cut to check.MaxQuoted bytes, in every reader.
func TestMessagesQuoteUserTextCapped(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 5<<20)
	for _, tc := range []struct {
		op   string
		args string
		in   string
	}{
		// A text cell among numbers, named in the typo message.
		{"parseCSV", `{}`, "a,b,y\n" + strings.Repeat("1,2,3\n", 20) + big + ",2,3\n"},
		// A 5 MB column name asked for as the target, and listed.
		{"parseCSV", `{"target":"nope","delimiter":","}`, big + ",b,y\n1,2,3\n4,5,6\n"},
		{"parseCSV", `{"target":"` + big + `"}`, "a,b,y\n1,2,3\n4,5,6\n"},
		// A 5 MB column name in a non-finite cell's place.
		{"parseCSV", `{"delimiter":","}`, big + ",b,y\n1,2,3\n1e999,5,6\n"},
		// An unknown option whose name is 5 MB.
		{"split", `{"n":10,"` + big + `":1}`, ""},
	} {
		_, _, err := Dispatch(tc.op, []byte(tc.args), Input{Bytes: []byte(tc.in)}, nil)
		if err == nil {
			t.Errorf("%s: no error", tc.op)
			continue
		}
		if _, _, _, msg := JSError(err); len(msg) > check.MaxMessage {
			t.Errorf("%s: a %d-byte message: %.200s…", tc.op, len(msg), msg)
		}
	}
}

// TestTinyLambdaIsAnOptionError: a subnormal λ is refused as the option it
// is, and a fixed λ too small for the rows says so, in the caller's words
// (it used to say "give a fixed lambda" to a caller who had given one).
func TestTinyLambdaIsAnOptionError(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(50, 3, 3, 1)
	// Every row twice: the kernel matrix is singular, so λ must carry it.
	Xd := append(append([]float64{}, X.RawMatrix().Data...), X.RawMatrix().Data...)
	yd := append(append([]float64{}, y...), y...)
	for _, tc := range []struct{ op, args, msg string }{
		{"fit", `"task":"regression","lambda":5e-324,"features":{"dim":16,"depth":1}`, "≥ 2.2250738585072014e-308"},
		{"fit", `"task":"regression","lambda":5e-324,"kernel":{"depth":1}`, "≥ 2.2250738585072014e-308"},
		{"fit", `"task":"regression","grid":[1,5e-324],"features":{"dim":16,"depth":1}`, "≥ 2.2250738585072014e-308"},
		{"fit", `"task":"regression","lambda":1e-300,"kernel":{"depth":1}`, "too small for these rows"},
		{"fit", `"task":"regression","lambda":1e-300,"features":{"dim":16}`, "too small for these rows"}, // in the 'auto' selection
	} {
		_, _, err := dispatchFit(mat.NewDense(100, 3, Xd), yd, tc.args, 0, nil)
		if err == nil {
			t.Errorf("%s %s: no error", tc.op, tc.args)
			continue
		}
		_, code, opt, msg := JSError(err)
		if code != check.Option || !strings.HasPrefix(opt, "lambda") && !strings.HasPrefix(opt, "grid") || !strings.Contains(msg, tc.msg) || strings.Contains(msg, "give a fixed lambda") {
			t.Errorf("%s %s: %v (%s, option %q), want ERR_OPTION on lambda saying %q", tc.op, tc.args, err, code, opt, tc.msg)
		}
	}
	if _, err := active.SelectActive(mat.NewDense(2, 2, []float64{1, 0, 0, 1}), 1, 5e-324); check.CodeOf(err) != check.Option {
		t.Errorf("SelectActive at a subnormal λ: %v", err)
	}
	if _, err := metrics.Spectral(mat.NewDense(1, 1, []float64{1}), mat.NewDense(1, 1, []float64{1}), 5e-324); check.CodeOf(err) != check.Option {
		t.Errorf("Spectral at a subnormal λ: %v", err)
	}
}

// TestIndexLimitIsDocumented: the limit index.d.ts states for split and
// kfold is data.MaxIndices.
func TestIndexLimitIsDocumented(t *testing.T) {
	t.Parallel()
	dts, err := os.ReadFile("../www/pkg/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("at most %s", groupThousands(data.MaxIndices))
	if n := strings.Count(string(dts), want); n != 2 {
		t.Errorf("index.d.ts says %q %d times for split and kfold; data.MaxIndices is %d", want, n, data.MaxIndices)
	}
}

func groupThousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
