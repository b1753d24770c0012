//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"ntkrf/beam/fitbeam"
)

// portable is a prism job server in a process of its own, whose workers
// run the command's binary in processes of their own (PROCESS
// environment, through the SDK's boot program): the portable Job API path
// that Dataflow, Flink and Spark take, where every element crosses a
// process boundary encoded (the in-process runner never encodes one).
type portable struct {
	dir, bin, endpoint, token string
}

// startPortable builds prism, the SDK's boot program and this command,
// and starts prism as a job server.
func startPortable(t *testing.T) *portable {
	t.Helper()
	dir := t.TempDir()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	build := func(out, pkg string) {
		cmd := exec.Command(goBin, "build", "-o", filepath.Join(dir, out), pkg)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	build("prism", "github.com/apache/beam/sdks/v2/go/cmd/prism")
	build("boot", "github.com/apache/beam/sdks/v2/go/container")
	build("ntkrf-beam", ".")
	// prism passes --id='ID' with the quotes (no shell strips them); the
	// boot program looks the worker up by ID.
	script := `#!/bin/sh
id=""; prov=""
for a; do
  case $a in
    --id=*) id=$(printf %s "${a#--id=}" | tr -d "'") ;;
    --provision_endpoint=*) prov=${a#--provision_endpoint=} ;;
  esac
done
exec "$(dirname "$0")/boot" --id="$id" --provision_endpoint="$prov"
`
	if err := os.WriteFile(filepath.Join(dir, "boot.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	prism := exec.Command(filepath.Join(dir, "prism"), fmt.Sprintf("-job_port=%d", port), "-serve_http=false")
	prism.Dir = dir // the boot program writes pipeline_options.json where it runs
	logFile, err := os.Create(filepath.Join(dir, "prism.log"))
	if err != nil {
		t.Fatal(err)
	}
	prism.Stdout, prism.Stderr = logFile, logFile
	// Its own process group: the workers it starts end with it.
	prism.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := prism.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-prism.Process.Pid, syscall.SIGKILL)
		prism.Wait()
		logFile.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logFile.Name())
			t.Logf("prism's log (end):\n%s", tail(string(b)))
		}
	})
	endpoint := fmt.Sprintf("127.0.0.1:%d", port)
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", endpoint); err == nil {
			c.Close()
			break
		}
		if i == 100 {
			t.Fatal("prism did not start listening")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return &portable{dir: dir, bin: filepath.Join(dir, "ntkrf-beam"), endpoint: endpoint, token: fmt.Sprint(rand.Uint64())}
}

// run runs the command in process (prism in-process, as by default) or on
// the job server, returning its stderr and error.
func (p *portable) run(ctx context.Context, onServer bool, args ...string) (string, error) {
	if onServer {
		env := fmt.Sprintf(`{"command": %q, "env": {"NTKRF_PORTABLE_TEST": %q}}`, filepath.Join(p.dir, "boot.sh"), p.token)
		args = append(args, "--runner=universal", "--endpoint="+p.endpoint, "--environment_type=PROCESS",
			"--environment_config="+env, "--worker_binary="+p.bin)
	}
	cmd := exec.CommandContext(ctx, p.bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return stderr.String(), err
}

// shards writes k CSV shards of n rows each (5 numeric columns and a
// class) and returns their glob.
func shards(t *testing.T, dir string, k, n int) string {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	for s := range k {
		var b strings.Builder
		b.WriteString("a,b,c,d,e,label\n")
		for range n {
			x := [5]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			label := "x"
			if x[0]*x[1]+x[2] > 0 {
				label = "y"
			}
			fmt.Fprintf(&b, "%.6f,%.6f,%.6f,%.6f,%.6f,%s\n", x[0], x[1], x[2], x[3], x[4], label)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("shard-%d.csv", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "shard-*.csv")
}

// TestPortableRunner: the fit and the batch prediction on the job server,
// workers out of process, write the in-process run's bytes ('auto'
// selection, statistics, parts and the solve all cross processes
// encoded); and a worker killed mid-fit fails the job with a coded
// one-line error and leaves no model file (prism does not retry a bundle;
// a runner that does gives the same bytes, parts being keyed by rows).
func TestPortableRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("builds prism and runs jobs on it")
	}
	p := startPortable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	data := t.TempDir()
	glob := shards(t, data, 4, 1500)
	read := func(name string) []byte {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	models := map[bool]string{}
	for _, onServer := range []bool{false, true} {
		out := filepath.Join(data, fmt.Sprintf("model-%v.json", onServer))
		if stderr, err := p.run(ctx, onServer, "--input", glob, "--output", out, "--dim", "256"); err != nil {
			t.Fatalf("fit (job server: %v): %v\n%s", onServer, err, tail(stderr))
		}
		models[onServer] = out
	}
	if !bytes.Equal(read(models[true]), read(models[false])) {
		t.Fatal("the fit on the job server, workers out of process, wrote other model bytes than in process")
	}
	for _, onServer := range []bool{false, true} {
		prefix := filepath.Join(data, fmt.Sprintf("pred-%v", onServer), "p")
		if stderr, err := p.run(ctx, onServer, "predict", "--model", models[false], "--input", glob, "--output", prefix); err != nil {
			t.Fatalf("predict (job server: %v): %v\n%s", onServer, err, tail(stderr))
		}
	}
	for s := range 4 {
		shard := filepath.Join(data, fmt.Sprintf("shard-%d.csv", s))
		a := read(fitbeam.OutputName(filepath.Join(data, "pred-true", "p"), shard))
		b := read(fitbeam.OutputName(filepath.Join(data, "pred-false", "p"), shard))
		if !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 1500 {
			t.Fatalf("shard %d: the predictions on the job server differ from in process (or are not one line a row)", s)
		}
	}

	// A worker killed during the fit.
	big := t.TempDir()
	glob = shards(t, big, 4, 20000)
	out := filepath.Join(big, "model.json")
	done := make(chan error, 1)
	var stderr string
	go func() {
		var err error
		stderr, err = p.run(ctx, true, "--input", glob, "--output", out, "--dim", "512")
		done <- err
	}()
	killed := false
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-time.After(200 * time.Millisecond):
			if !killed {
				killed = killWorker(p.token)
			}
		}
	}
	if !killed {
		t.Skip("the job ended before a worker could be killed")
	}
	entries, _ := os.ReadDir(big)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "model.json") {
			if err == nil && e.Name() == "model.json" {
				continue // the runner retried: checked below
			}
			t.Errorf("a killed worker left %s", e.Name())
		}
	}
	if err == nil {
		// A runner that retries the bundle: the same bytes as in process.
		if _, err := p.run(ctx, false, "--input", glob, "--output", filepath.Join(big, "inproc.json"), "--dim", "512"); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(read(out), read(filepath.Join(big, "inproc.json"))) {
			t.Fatal("after a killed worker the job wrote other model bytes")
		}
		t.Log("a killed worker's job completed (its bundle run again) with the in-process bytes")
		return
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^ntkrf-beam: .*\(ERR_[A-Z]+\)$`).MatchString(last) {
		t.Errorf("a killed worker's job ended with %q; want one line with its code", last)
	}
	t.Logf("a killed worker's job: %s", last)
}

// killWorker kills one worker process of this test's jobs (its environment
// names the test's token) and reports whether it found one.
func killWorker(token string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, f := range procs {
		env, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(env, []byte("NTKRF_PORTABLE_TEST="+token)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "cmdline"))
		if !bytes.Contains(cmdline, []byte("--worker=true")) {
			continue
		}
		var pid int
		fmt.Sscanf(filepath.Base(filepath.Dir(f)), "%d", &pid)
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			return true
		}
	}
	return false
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
