// Flag values that are lists: parsed here once for every experiment.

package main

import (
	"fmt"
	"strconv"
	"strings"

	"ntkrf/core/data"
)

// parseInts reads a comma-separated list of integers ("64,128, 256").
func parseInts(s string) ([]int, error) {
	v, err := parseList(s, strconv.Atoi)
	if err != nil {
		return nil, fmt.Errorf("bad list %q: %v", s, err)
	}
	return v, nil
}

// parseList reads a comma-separated list, each item (spaces trimmed) by parse.
func parseList[T any](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// parsePreps reads a comma-separated list of preprocessings for a search's
// candidates (the research flags -preps): "std" standardize, "unit" then
// scale rows to unit norm, "raw" neither, "rawunit" unit norm only, and a
// bias input of σ appended after any of them as "+b σ" without the space
// ("std+b1", "unit+b0.5"; "b1" alone is "std+b1").
func parsePreps(s string) ([]data.Prep, error) {
	return parseList(s, func(f string) (data.Prep, error) {
		base, bias, hasBias := strings.Cut(f, "+b")
		if strings.HasPrefix(f, "b") {
			base, bias, hasBias = "std", f[1:], true
		}
		var p data.Prep
		switch base {
		case "std", "":
		case "unit":
			p.UnitNorm = true
		case "raw":
			p.Raw = true
		case "rawunit":
			p.Raw, p.UnitNorm = true, true
		default:
			return p, fmt.Errorf("preprocessing %q: use std, unit, raw or rawunit, optionally +bσ", f)
		}
		if hasBias {
			b, err := strconv.ParseFloat(bias, 64)
			if err != nil {
				return p, fmt.Errorf("preprocessing %q: %v", f, err)
			}
			p.Bias = b
		}
		return p, p.Check()
	})
}
