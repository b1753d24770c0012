// What the experiments measure about this process: wall time, CPU time,
// peak memory, cores.

package main

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// since is the wall time from t, in seconds.
func since(t time.Time) float64 { return time.Since(t).Seconds() }

// peakMB is the resident-set high-water mark of this process (Linux).
func peakMB() float64 {
	fh, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// cpuSeconds is the user + system CPU time of this process so far, from
// /proc/self/stat (Linux, 100 ticks a second), or 0 where it is missing.
func cpuSeconds() float64 {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are the 12th and 13th of them.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (u + st) / 100
}

// runtimeProcs is the number of cores Go schedules on (GOMAXPROCS).
func runtimeProcs() int { return runtime.GOMAXPROCS(0) }
