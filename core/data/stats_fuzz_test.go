package data

import (
	"testing"

	"ntkrf/internal/check"
)

// FuzzDecodeStats: any bytes are decoded or refused with a coded error,
// never a panic; what decodes encodes to the same bytes and builds a
// Scaler or says why not.
func FuzzDecodeStats(f *testing.F) {
	X, groups := statsTable(20, 0.2, 1)
	s, err := Collect(X, groups)
	if err != nil {
		f.Fatal(err)
	}
	good := s.AppendBinary(nil)
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add([]byte(statsMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeStats(b)
		if err != nil {
			if check.CodeOf(err) == "" {
				t.Fatalf("uncoded error: %v", err)
			}
			return
		}
		if again := s.AppendBinary(nil); string(again) != string(b) {
			t.Fatalf("decoded statistics encode differently")
		}
		if s.Rows() > 0 {
			if _, err := s.Scaler(Prep{}); err != nil {
				t.Fatalf("decoded statistics give no scaler: %v", err)
			}
		}
	})
}
