package pipeline

// The sizes a host whose memory is bounded (a browser tab: WebAssembly
// memory never shrinks, and a tab has a few GB in all) cuts its work by,
// and how long it waits for an instance to start and how often it restarts one.
// The core states them once; the JavaScript package reads them through the
// bridge (jsbridge.Core) and writes none of its own.
const (
	// ChunkBytes is the most bytes of rows a host sends one worker at once:
	// the fit's chunks (Plan.Chunks(ChunkBytes)) and the blocks of predict.
	// A worker then holds a few times this (the rows in the host, their copy
	// in Go, the scaled copy), whatever the number of rows.
	ChunkBytes = 8 << 20

	// SplitSelectBytes is the largest sample of rows (the Search.Rows rows
	// of X, as float64) whose selection a host splits over its workers:
	// each worker scoring a share of the candidates holds a copy of the
	// sample; a larger one is scored in one worker.
	SplitSelectBytes = 64 << 20

	// MinBlockRows is the fewest rows a host sends one worker in a block
	// of a call it spreads over its workers (kernel, features, predict):
	// fewer rows cost more in messages than they save in time.
	MinBlockRows = 64

	// StartTimeoutMillis is how long a host waits for one WebAssembly
	// instance to start (instantiate the module, register its operations)
	// before it gives up on it and stops its worker: a start that never
	// ends must not leave the host waiting for ever. Generous, for a slow
	// or busy machine starting several instances at once (a start takes
	// well under a second on an idle one).
	StartTimeoutMillis = 60_000

	// MaxRestarts is how many times in a row a host restarts a worker's
	// instance that failed on its own (crashed while starting or idle, or
	// did not start within StartTimeoutMillis) before it gives that worker
	// up: an instance that cannot live must not be restarted for ever. The
	// calls waiting for the worker, and later calls that need it, then fail
	// with ERR_INSTANCE. A restart after a call's own crash or abort is that
	// call's and is not counted; a call answered starts the count again.
	MaxRestarts = 3

	// MaxArrayValues is the most values a host puts in one array of rows:
	// a matrix it builds from an array of rows, the rows it picks by index
	// (the package's take). 2³¹ − 1 float64 values are 16 GB, beyond any
	// tab, and the largest length every JavaScript engine gives a typed
	// array.
	MaxArrayValues = 1<<31 - 1
)
