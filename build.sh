#!/usr/bin/env bash
# ntkrf build script.
#   ./build.sh [build]     build dist/www (the lab) and dist/npm (the package)
#   ./build.sh serve [PORT] build, then serve dist/www on 127.0.0.1:PORT (default 8080)
#   ./build.sh test        every test: go vet, Go natively and in wasm, Node package, browser,
#                          then the nested Beam module (beam/)
#   ./build.sh beam        the nested Beam module's step alone (root untouched by Beam, vet, tests)
#   ./build.sh setup       install what a fresh Debian machine lacks (needs root)
#   ./build.sh bench [L]   the package/native ratio on the standard job, then the Fashion-MNIST job
#                          natively and through the package (1 and 2 workers)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
GO=${GO:-go}
# go.mod asks for Go 1.27 (simd/archsimd in WebAssembly). Machines that set
# GOTOOLCHAIN=local refuse it, so ask for it: the go command fetches it
# through the module proxy once and caches it.
export GOTOOLCHAIN=go1.27.0

need_go() {
  local v
  v=$($GO env GOVERSION 2>/dev/null) || { echo "build.sh: Go is not installed, or could not fetch $GOTOOLCHAIN (need Go ≥ 1.21 to fetch it)" >&2; exit 1; }
  case "$v" in go1.2[7-9]*|go1.[3-9]*) ;; *) echo "build.sh: need Go ≥ 1.27, found $v" >&2; exit 1 ;; esac
}

build() {
  need_go
  local goroot; goroot=$($GO env GOROOT)
  rm -rf dist/npm dist/www
  mkdir -p dist/npm dist/www dist/bin
  # The schema and core an instance hands the package as it starts, encoded
  # here once instead of in every instance (jsbridge/start.go; a test ties
  # the committed files to the source).
  $GO generate ./jsbridge
  # Reproducible wasm: no build paths, no build id, no symbol tables;
  # WebAssembly SIMD kernels (simd/archsimd; engines without SIMD get an
  # error from index.js naming the browser versions needed).
  GOEXPERIMENT=simd GOOS=js GOARCH=wasm $GO build -trimpath -buildvcs=false -ldflags='-s -w -buildid=' -o dist/npm/ntkrf.wasm ./wasm
  # The glue must come from the toolchain that built the .wasm.
  cp "$goroot/lib/wasm/wasm_exec.js" dist/npm/
  # The hand-written SIMD kernels (wasm/kernels/*.wat), assembled with the
  # wabt package (a devDependency: build time only; the package ships the .wasm).
  need_npm
  node wasm/kernels/assemble.mjs dist/npm
  # The package's ES modules (index.js imports the others; no bundler), types and manifest.
  cp www/pkg/*.js www/pkg/index.d.ts www/pkg/package.json www/pkg/README.md LICENSE dist/npm/
  # The lab: static files plus the package, served as ES modules (no bundler needed).
  cp -r www/lab/. dist/www/
  cp -r dist/npm dist/www/ntkrf
  mkdir -p dist/www/data
  cp testdata/*.csv dist/www/data/ 2>/dev/null || true
  cp testdata/*.csv.gz dist/www/data/ 2>/dev/null || true
  $GO build -trimpath -o dist/bin/serve ./cmd/serve
  printf 'built:\n'
  du -h dist/npm/ntkrf.wasm dist/npm/kernels.wasm | sed 's/^/  /'
  printf '  %s (gzip)\n' "$(gzip -9c dist/npm/ntkrf.wasm | wc -c | awk '{printf "%.1fM", $1/1048576}')"
  printf '  dist/npm: %s files, dist/www: %s files\n' "$(find dist/npm -type f | wc -l)" "$(find dist/www -type f | wc -l)"
}

serve() {
  build
  local port=${1:-8080}
  exec dist/bin/serve -dir dist/www -addr "127.0.0.1:$port"
}

chromium_path() {
  for c in "${CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return; }
  done
  echo "build.sh: Debian's chromium is needed for the browser tests (apt-get install chromium)" >&2
  exit 1
}

wasm_test() {
  # The hand-written kernels, preloaded into every test binary's Node
  # (wasm/kernels/node-preload.cjs) as the package's worker loads them.
  need_npm
  node wasm/kernels/assemble.mjs dist/test
  # Go's wasm test runner passes argv and environment to Node, limited to
  # 8 KiB in total, so run it with a trimmed environment.
  env -i PATH="$($GO env GOROOT)/lib/wasm:$(dirname "$(command -v $GO)"):/usr/local/bin:/usr/bin:/bin" \
    NODE_OPTIONS="--require $ROOT/wasm/kernels/node-preload.cjs" NTKRF_KERNELS_WASM="$ROOT/dist/test/kernels.wasm" \
    HOME="$HOME" GOCACHE="$($GO env GOCACHE)" GOMODCACHE="$($GO env GOMODCACHE)" GOPROXY="$($GO env GOPROXY)" \
    GOFLAGS=-buildvcs=false GOTOOLCHAIN="$GOTOOLCHAIN" GOEXPERIMENT="${GOEXPERIMENT:-}" GOOS=js GOARCH=wasm "$GO" test "$@"
}

test_all() {
  need_go
  setup
  # The hosts (native Go, Node, Chromium) hand each other models through a
  # fresh directory per run: no test reads a file an earlier run left.
  export NTKRF_CROSSHOST_DIR="$ROOT/dist/test/crosshost"
  rm -rf "$NTKRF_CROSSHOST_DIR"
  mkdir -p "$NTKRF_CROSSHOST_DIR"
  echo "== go vet (native and js/wasm)"
  $GO vet ./...
  GOOS=js GOARCH=wasm $GO vet ./...
  GOEXPERIMENT=simd GOOS=js GOARCH=wasm $GO vet ./...
  echo "== go test (native)"
  $GO test -count=1 ./...
  echo "== go test -tags noasm (portable kernels)"
  $GO test -count=1 -tags noasm ./core/...
  # The SIMD kernels, and the portable ones they must match bit for bit.
  echo "== go test (js/wasm under Node, SIMD)"
  GOEXPERIMENT=simd wasm_test -count=1 ./core/... ./jsbridge/...
  echo "== go test (js/wasm under Node, portable)"
  wasm_test -count=1 ./core/... ./jsbridge/...
  echo "== fuzz (short runs)"
  fuzz_short
  build
  # A build whose split(…, {seed: 4242}) runs its instance out of memory,
  # for the test that kills an instance on purpose (jsbridge/testhook_crash.go).
  mkdir -p dist/test
  GOEXPERIMENT=simd GOOS=js GOARCH=wasm $GO build -tags crashtest -trimpath -buildvcs=false -o dist/test/ntkrf-crashtest.wasm ./wasm
  echo "== node tests (package and browser)"
  CHROMIUM=$(chromium_path) node --test --test-concurrency=1 test/*.test.js
  # Models the Node and Chromium tests saved, predicted natively.
  echo "== cross-host models (native)"
  NTKRF_CROSSHOST=1 $GO test -count=1 -run '^TestCrossHost$' ./core/pipeline
  beam_test
}

# The nested module beam/ (Apache Beam's Go SDK) as its own step: first
# that the root module does not see Beam (the core and the WebAssembly
# module must never depend on it), then vet, the prism tests and the
# command's build. Cold (module download through the proxy, ~200 MB, and
# compiling the SDK) it takes minutes; its time is printed.
beam_test() {
  echo "== beam module (nested, Apache Beam Go SDK)"
  local t0=$SECONDS
  if grep -q 'apache/beam' go.mod go.sum || $GO list -deps ./... | grep -q 'apache/beam'; then
    echo "build.sh: the root module depends on Apache Beam; only beam/ (its own go.mod) may" >&2
    exit 1
  fi
  (cd beam && $GO mod download && $GO vet ./... && $GO test -count=1 ./... && $GO build -o /dev/null ./cmd/ntkrf-beam)
  echo "beam module: $((SECONDS - t0)) s"
}

# A few seconds per fuzz target on every test run; longer runs: see README.
fuzz_short() {
  local pkg target
  while read -r pkg target; do
    [ -n "$target" ] || continue
    $GO test -run='^$' -fuzz="^${target}\$" -fuzztime="${FUZZTIME:-5s}" "$pkg"
  done < <(grep -rl --include='*_test.go' '^func Fuzz' core jsbridge internal | while read -r f; do
    for t in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | cut -d' ' -f2); do echo "./$(dirname "$f") $t"; done
  done)
}

# Installs what the tests need and a fresh Debian machine lacks: Node.js
# and Debian's chromium (apt, as root), playwright-core (npm; it downloads no
# browser) and wabt (npm). Does nothing when all is there.
# The standard job of the performance issue: native Go (every stage timed,
# against the authors' figures), then the same job through the npm package
# under Node with 1 and 2 workers, so wasm/native is a ratio from one run.
bench() {
  need_go
  [ -d /usr/share/datasets/fashion-mnist ] || {
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo apt-get install -y -qq dataset-fashion-mnist >/dev/null ||
      { echo "build.sh bench: needs the Debian package dataset-fashion-mnist" >&2; exit 1; }
  }
  build >/dev/null
  bench_ratio
  local depths=${1:-1,2}
  # Native: the default (exact) sampler with the exact-NTK comparison, then
  # the hadamard sampler with the float32 Gram. Package (wasm): hadamard at every depth and the
  # exact sampler at depth 1 (its dense 2048→4096 layer-2 product takes
  # minutes in wasm).
  # Then each native job on one core and on all of them (the worker
  # scaling), the float32 projections beside the float64 reference.
  local procs="1,$(nproc)"
  $GO run ./cmd/ntkrf bench -depths "$depths"
  for p in float64 float32; do
    $GO run ./cmd/ntkrf bench -depths "$depths" -procs "$procs" -precision $p -exact=false -oracle=false
  done
  $GO run ./cmd/ntkrf bench -depths "$depths" -sampler hadamard -gram float32 -exact=false
  for L in ${depths//,/ }; do node bench/package-bench.mjs --depth "$L" --sampler hadamard; done
  node bench/package-bench.mjs --depth 1 --sampler exact
  node bench/package-bench.mjs --depth 1 --sampler exact --precision float64
}

# The package/native ratio on the issue's standard job: Fashion-MNIST,
# 5,000 training and 2,000 test rows, m = 2048, L = 1, the λ search included
# (held-out accuracy, the default for classes),
# natively (float64, the reference) and through the package with 2 workers
# at its default path (float32 features) and at float64 (equal precision),
# in two alternating rounds (the first native run of a process is often
# the slowest).
bench_ratio() {
  local r nat pkg p64
  $GO build -o dist/bin/ntkrf ./cmd/ntkrf
  for r in 1 2; do
    nat=$(dist/bin/ntkrf bench -n 5000 -test 2000 -m 2048 -depths 1 -exact=false -oracle=false | tail -n 1)
    pkg=$(node bench/package-bench.mjs --n 5000 --test 2000 --dim 2048 --depth 1 --workers 2 | tail -n 1)
    p64=$(node bench/package-bench.mjs --n 5000 --test 2000 --dim 2048 --depth 1 --workers 2 --precision float64 | tail -n 1)
    node -e 'const [n] = JSON.parse(process.argv[1]), [p] = JSON.parse(process.argv[2]), [q] = JSON.parse(process.argv[4]);
      console.log(`standard job (n = 5,000 + 2,000, m = 2048, L = 1, λ search), round ${process.argv[3]}: native float64 ${n.totalWithSearchSeconds.toFixed(2)} s (λ ${n.lambda}, accuracy ${n.accuracy}); package (2 workers) default ${p.totalSeconds.toFixed(2)} s (${p.precision}, λ ${p.lambda}, accuracy ${p.accuracy}), ${(p.totalSeconds / n.totalWithSearchSeconds).toFixed(2)}× native; package float64 ${q.totalSeconds.toFixed(2)} s (λ ${q.lambda}, accuracy ${q.accuracy}), ${(q.totalSeconds / n.totalWithSearchSeconds).toFixed(2)}× native (equal precision)`)' "$nat" "$pkg" "$r" "$p64"
  done
}

setup() {
  local pkgs=()
  command -v node >/dev/null || pkgs+=(nodejs npm)
  [ -x /usr/bin/chromium ] || pkgs+=(chromium)
  if [ ${#pkgs[@]} -gt 0 ]; then
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    echo "== installing ${pkgs[*]} (apt)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
  fi
  node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' ||
    { echo "build.sh: Node.js ≥ 20 is needed, found $(node --version)" >&2; exit 1; }
  need_npm
  $GO mod download
}

# The npm devDependencies (package-lock.json): playwright-core for the
# browser tests, wabt to assemble the kernels. npm ci when one is missing.
need_npm() {
  [ -d node_modules/playwright-core ] && [ -d node_modules/wabt ] || npm ci --no-audit --no-fund --loglevel=error
}

case "${1:-build}" in
  build) build ;;
  serve) shift; serve "$@" ;;
  test) test_all ;;
  beam) need_go; beam_test ;;
  setup) setup ;;
  fuzz) shift; FUZZTIME=${1:-60s} fuzz_short ;;
  bench) shift; bench "$@" ;;
  *) echo "usage: ./build.sh [build|serve [PORT]|test|beam|setup|fuzz [TIME]|bench [DEPTHS]]" >&2; exit 2 ;;
esac
