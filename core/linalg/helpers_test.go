package linalg

import "math/rand/v2"

// randFloats returns n standard normal draws of r.
func randFloats(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	return s
}
