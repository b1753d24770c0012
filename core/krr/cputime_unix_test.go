//go:build unix

package krr

import "syscall"

// cpuSeconds is the CPU time (user and system) this process has used:
// on a machine shared with other work, stages compared by CPU time are
// steadier than by wall time.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return float64(u.Utime.Sec+u.Stime.Sec) + float64(u.Utime.Usec+u.Stime.Usec)/1e6
}
