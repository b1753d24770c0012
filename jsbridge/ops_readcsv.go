package jsbridge

// readCSV reads a CSV file's rows through a model's input schema
// (Pipeline.ReadCSV), without predicting them: the package's predictCSV
// reads the file in one worker and predicts its rows as Model.predict
// does, in blocks over every worker. The same reader and the same
// options (maxBytes) as predictCSV, whose errors it gives.
func init() {
	ops["readCSV"] = opReadCSV
	opSchema["readCSV"] = "predictCSV"
}

func opReadCSV(c *call, args []byte) (any, error) {
	var a struct {
		modelRefs
		MaxBytes int `json:"maxBytes"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	p, err := c.pipelineOf(a.modelRefs)
	if err != nil {
		return nil, err
	}
	c.progress(0, 1, "parse")
	X, err := p.ReadCSV(c.bytes, a.MaxBytes)
	if err != nil {
		return nil, err
	}
	c.progress(1, 1, "parse")
	return c.putMatrix(X), nil
}
