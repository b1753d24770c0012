module ntkrf

go 1.27

require (
	github.com/hack-pad/safejs v0.1.0
	github.com/mjibson/go-dsp v0.0.0-20180508042940-11479a337f12
	golang.org/x/sys v0.49.0
	gonum.org/v1/gonum v0.17.0
)
