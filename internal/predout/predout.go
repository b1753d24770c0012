package predout

import (
	"strconv"
	"strings"

	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
)

// Append appends one line per prediction of p (its Predict's labels) to
// b: the class name as a CSV field, as the lab's downloads write it
// (data.CSVField: quoted when it holds a comma or quote, a leading
// = + - @ neutralised), with a line break inside a name escaped as \n (\r,
// and \\ for a backslash, in such a name); or the value with %.17g (the
// shortest text is not used so that every host's reader gets the same
// digits).
func Append(b []byte, p *pipeline.Pipeline, pred []float64) ([]byte, error) {
	if p.Task() != krr.Classification {
		for _, v := range pred {
			b = append(strconv.AppendFloat(b, v, 'g', 17, 64), '\n')
		}
		return b, nil
	}
	names, err := p.ClassNames(pred)
	if err != nil {
		return b, err
	}
	for _, n := range names {
		b = append(append(b, data.CSVField(oneLine(n))...), '\n')
	}
	return b, nil
}

// lineBreaks escapes a name that holds a line break: one prediction per
// line, whatever the model's class names hold.
var lineBreaks = strings.NewReplacer(`\`, `\\`, "\r", `\r`, "\n", `\n`)

// oneLine returns name, with its line breaks (and then its backslashes)
// escaped when it has any.
func oneLine(name string) string {
	if !strings.ContainsAny(name, "\r\n") {
		return name
	}
	return lineBreaks.Replace(name)
}
