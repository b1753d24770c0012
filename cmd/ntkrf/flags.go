// Flag values that are lists: parsed here once for every experiment.

package main

import (
	"fmt"
	"strconv"
	"strings"
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
