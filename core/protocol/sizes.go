package protocol

// ChunkBytes is the most bytes of rows a host sends one worker at once:
// the fit's chunks (Plan.Chunks(ChunkBytes)) and the blocks of predict. A
// worker then holds a few times this (the rows in the host, their copy in
// Go, the scaled copy), whatever the number of rows. (How a particular
// host schedules, waits and restarts is its own: the package's in
// ntkrf/jsbridge.)
const ChunkBytes = 8 << 20
