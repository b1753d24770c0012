package jsbridge

import "runtime"

// stats reports the memory of this instance: in WebAssembly, Sys is the
// linear memory the Go runtime has obtained (it never shrinks), so it
// shows whether repeated calls leak.
func opStats(c *call, args []byte) (any, error) {
	var a struct{}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	kept.Lock()
	fits := len(kept.parts)
	kept.Unlock()
	return struct {
		HeapBytes uint64 `json:"heapBytes"`
		SysBytes  uint64 `json:"sysBytes"`
		// KeptParts is the number of fits whose parts the instance keeps
		// (ops_fit_kept.go): 0 between fits.
		KeptParts int `json:"keptParts"`
	}{ms.HeapAlloc, ms.Sys, fits}, nil
}
