// Reading a whole input file under a byte limit: used by predict and score
// for the model file, and by the experiments for the shared CSV files.

package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"ntkrf/core/data"
	"ntkrf/internal/check"
)

// readBounded reads a whole file (stdin for "-") of at most limit bytes:
// a larger regular file is refused before reading, and any other (a pipe,
// /dev/zero) is refused once limit+1 bytes have come, so no read holds
// more than the limit. flag names the flag that raises it ("" for none).
func readBounded(name string, stdin io.Reader, limit int, flag string) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > int64(limit) {
			return nil, tooLarge(name, st.Size(), limit, flag)
		}
		r = f
	} else if r == nil {
		return nil, check.New(check.Option, "", "-: there is no standard input to read")
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > limit {
		return nil, tooLarge(name, -1, limit, flag)
	}
	return b, nil
}

func tooLarge(name string, size int64, limit int, flag string) error {
	what := "more than"
	if size >= 0 {
		what = check.FormatBytes(float64(size)) + ", over"
	}
	raise := "use a smaller file"
	if flag != "" {
		raise = fmt.Sprintf("raise it with %s (at most %d)", flag, data.MaxBytesLimit)
	}
	return check.New(check.TooLarge, strings.TrimPrefix(flag, "-"), "%s: the file is %s the %s limit (%d bytes); %s",
		name, what, check.FormatBytes(float64(limit)), limit, raise)
}
