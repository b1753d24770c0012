// Package pmath holds exp, log and erfc that give the same bits on every
// platform: Go's pure-Go algorithms with every product that a compiler
// could fuse rounded explicitly. package math uses assembly for Exp and
// Log on amd64 (Exp with fused multiply-adds), so its results can differ
// in the last bit from what WebAssembly computes. core/rf draws its
// random features with these; core/kernel's RBF map uses Exp in
// WebAssembly, where it is math.Exp's own algorithm and bits.
package pmath
