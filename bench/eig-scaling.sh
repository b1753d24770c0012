#!/bin/sh
# λ search against the Gram step at n = 20,000, m = 4096 (synthetic Gaussian
# features: BenchmarkSearchVsGram in core/linalg), for GOMAXPROCS = 2, 4, 8, 16,
# this tree side by side with the commit before the parallel λ search work.
#
#   bench/eig-scaling.sh build   # here, with Go and git: writes the two static
#                                # test binaries bench/eig.test (this tree) and
#                                # bench/eig-base.test (BASE, default 7544fb2,
#                                # with this tree's benchmark file added)
#   bench/eig-scaling.sh [ROUNDS]  # anywhere, no network, no Go needed: runs
#                                # the binaries (builds bench/eig.test first if
#                                # it is missing and go is on PATH); ROUNDS
#                                # (default 2) alternates the two builds per
#                                # core count. About 2–3 min on 16 cores.
#
# Columns (seconds, one run each): gram = AddAtA (the Gram step), search = the
# λ search's linear algebra (copy of C, Reduce, Q applied to 110 columns),
# ratio = search/gram (targets: ≤ 1 on 16 cores, ≤ 0.6 on 2), then the
# search's stages: band (sy2sb), q1r (Q₁ᵀR), chase (sb2st), q2x, q1x (ApplyQ).
set -eu
cd "$(dirname "$0")/.."
new=bench/eig.test
base=bench/eig-base.test

if [ "${1:-}" = build ]; then
	BASE=${BASE:-7544fb2}
	export CGO_ENABLED=0 GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.0}
	go test -c -o "$new" ./core/linalg
	tmp=$(mktemp -d)
	git archive "$BASE" | tar -x -C "$tmp"
	cp core/linalg/search_bench_test.go "$tmp/core/linalg/"
	(cd "$tmp" && go test -c -o bench/eig-base.test ./core/linalg)
	cp "$tmp/bench/eig-base.test" "$base"
	rm -rf "$tmp"
	ls -l "$new" "$base"
	exit 0
fi

rounds=${1:-2}
if [ ! -x "$new" ]; then
	CGO_ENABLED=0 go test -c -o "$new" ./core/linalg
fi
bins=$new
[ -x "$base" ] && bins="$new $base"
cores=$(nproc)
echo "machine: $cores cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
printf '%-5s %-5s %-5s %7s %7s %6s %7s %7s %7s %7s %7s %7s\n' round procs build gram search ratio copy band q1r chase q2x q1x
for r in $(seq 1 "$rounds"); do
	for p in 2 4 8 16; do
		if [ "$p" -gt "$cores" ]; then
			echo "skip GOMAXPROCS=$p: $cores cores"
			continue
		fi
		for bin in $bins; do
			name=new
			[ "$bin" = "$base" ] && name=base
			GOMAXPROCS=$p timeout 150 "./$bin" -test.run '^$' -test.bench '^BenchmarkSearchVsGram$' -test.benchtime 1x |
				awk -v r="$r" -v p="$p" -v b="$name" '/^BenchmarkSearchVsGram/ {
					for (i = 3; i < NF; i += 2) v[$(i+1)] = $i
					printf "%-5s %-5s %-5s %7.3f %7.3f %6.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f\n", r, p, b,
						v["s-gram"], v["s-search"], v["search/gram"], v["s-copy"], v["s-band"], v["s-q1r"], v["s-chase"], v["s-q2x"], v["s-q1x"]
				}'
		done
	done
done
