// Package predout writes predictions as the commands print them, one line
// per row, so that ntkrf predict and ntkrf-beam predict give the same
// bytes for the same rows.
package predout
