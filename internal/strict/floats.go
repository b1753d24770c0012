package strict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"ntkrf/internal/check"
)

// Floats reads a JSON array of finite numbers, as Unmarshal reads a
// []float64 but without a token per number: model files hold millions.
// null (JSON.stringify's NaN and ±Inf) and numbers beyond float64 are
// ERR_NONFINITE; errors carry the element's path ("[3]").
func Floats(b []byte) ([]float64, error) {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		if !json.Valid(b) {
			return nil, &Error{Code: check.Type, Msg: "is not valid JSON"}
		}
		return nil, &Error{Code: check.Type, Msg: fmt.Sprintf("is %s; it must be an array of numbers", clip(string(b)))}
	}
	body := bytes.TrimSpace(b[1 : len(b)-1])
	if len(body) == 0 {
		return []float64{}, nil
	}
	out := make([]float64, 0, bytes.Count(body, []byte{','})+1)
	for i := 0; len(body) > 0; i++ {
		item := body
		if k := bytes.IndexByte(body, ','); k >= 0 {
			item, body = body[:k], body[k+1:]
			if len(bytes.TrimSpace(body)) == 0 {
				return nil, &Error{Code: check.Type, Path: fmt.Sprintf("[%d]", i+1), Msg: "is missing after a comma"}
			}
		} else {
			body = nil
		}
		item = bytes.TrimSpace(item)
		path := fmt.Sprintf("[%d]", i)
		switch {
		case string(item) == "null":
			return nil, &Error{Code: check.NonFinite, Path: path, Msg: "is null, which is how JSON.stringify writes NaN and ±Inf: every number is finite"}
		case len(item) == 0 || !(item[0] == '-' || item[0] >= '0' && item[0] <= '9') || !json.Valid(item):
			return nil, &Error{Code: check.Type, Path: path, Msg: fmt.Sprintf("is %s; it must be a number", clip(string(item)))}
		}
		x, err := strconv.ParseFloat(string(item), 64)
		if err != nil || math.IsInf(x, 0) {
			return nil, &Error{Code: check.NonFinite, Path: path, Msg: fmt.Sprintf("is %s, beyond the range of a float64 (±Inf): every number is finite", clip(string(item)))}
		}
		out = append(out, x)
	}
	return out, nil
}
