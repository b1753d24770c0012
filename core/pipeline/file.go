package pipeline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/strict"
)

// Format and Version identify the JSON form of a pipeline. A reader refuses
// other formats and versions with an error that says which it reads.
// Version 2 added the selection and the curve's accuracy; version 3 the
// bias input (preprocess.bias); version 4 float32 projections
// (features.precision). A file is written with the lowest version
// that holds it, so a model without a bias input reads in older ntkrf as
// before, and one with a bias is refused there rather than read without
// it (older readers ignored unknown fields). A selection's candidates may
// name a bias in any version: an older reader only shows them. Older files
// are read as they are: a file without features.precision has float64
// features, in every version (filePrecision), although float32 is the
// default of a configuration (rf.DefaultPrecision).
const (
	Format  = "ntkrf-model"
	Version = 4
)

// version is the lowest file version that holds f: 4 when its features
// project in float32, 3 when its preprocessing has a bias input, else 2.
func (f *file) version() int {
	if f.float32() {
		return 4
	}
	if f.biased() {
		return 3
	}
	return 2
}

// filePrecision is what a file without features.precision means: the
// precision of every file written before the option, whatever today's
// default. A float64 map is written without it, so that its file reads in
// older ntkrf as before (their readers refuse unknown fields, and those
// of version 4 refuse "float64" written out).
const filePrecision = names.Float64

// fileFeatures is cfg as a file holds it: the precision left out where it
// is filePrecision.
func fileFeatures(cfg *rf.Config) *rf.Config {
	if cfg == nil || cfg.Precision != filePrecision {
		return cfg
	}
	c := *cfg
	c.Precision = ""
	return &c
}

// features is the file's configuration with an absent precision read as
// filePrecision.
func (f *file) features() rf.Config {
	c := *f.Features
	c.Precision = cmp.Or(c.Precision, filePrecision)
	return c
}

// float32 reports whether the file's features project in float32.
func (f *file) float32() bool { return f.Features != nil && f.Features.Float32() }

// biased reports whether the file's preprocessing has a bias input.
func (f *file) biased() bool {
	return f.Preprocess != nil && f.Preprocess.Prep().Bias > 0
}

// jsonMatrix is a matrix in the JSON form: row-major data.
type jsonMatrix struct {
	Rows int     `json:"rows"`
	Cols int     `json:"cols"`
	Data numbers `json:"data"`
}

// numbers is a []float64 whose JSON must hold numbers only: a null (what
// JSON.stringify writes for NaN and ±Inf) is refused rather than read as 0.
type numbers []float64

func (v *numbers) UnmarshalJSON(b []byte) (err error) {
	*v, err = strict.Floats(b)
	return err
}

func matrixOf(M *mat.Dense) *jsonMatrix {
	if M == nil {
		return nil
	}
	raw := M.RawMatrix()
	if raw.Stride == raw.Cols {
		return &jsonMatrix{Rows: raw.Rows, Cols: raw.Cols, Data: raw.Data[:raw.Rows*raw.Cols]}
	}
	out := &jsonMatrix{Rows: raw.Rows, Cols: raw.Cols, Data: make([]float64, 0, raw.Rows*raw.Cols)}
	for i := range raw.Rows {
		out.Data = append(out.Data, M.RawRowView(i)...)
	}
	return out
}

// curve is the λ curve in the JSON form (krr.Curve).
type curve = krr.Curve

// file is the JSON form. The feature map is stored by its configuration
// and seed — its directions are redrawn bit for bit on load — never by
// its weights. It is read strictly (readFile): a new field is added here,
// with omitempty when files written before it must still load (a field
// without omitempty must be present), and checked in checkHeader, or in
// pipeline when it needs the map or the kernel.
type file struct {
	Format     string       `json:"format"`
	Version    int          `json:"version"`
	Task       krr.Task     `json:"task"`
	Classes    []string     `json:"classes"`
	Lambda     float64      `json:"lambda"`
	Curve      curve        `json:"curve"`
	Input      *data.Schema `json:"input"`
	Preprocess *data.Scaler `json:"preprocess"`
	Features   *rf.Config   `json:"features,omitempty"`
	Kernel     *kernel.Spec `json:"kernel,omitempty"`
	Coef       *jsonMatrix  `json:"coef"`
	Bias       numbers      `json:"bias"`
	Train      *jsonMatrix  `json:"train,omitempty"` // kernel: the preprocessed training rows
	Selection  *Selection   `json:"selection,omitempty"`
}

// form returns the JSON form, with coef and train when matrices is set.
func (p *Pipeline) form(matrices bool) file {
	f := file{Format: Format, Task: p.Task(), Classes: p.classes, Lambda: p.Lambda(),
		Curve: curve(p.Curve()), Input: p.input, Preprocess: p.scaler, Features: fileFeatures(p.Features()), Kernel: p.kern,
		Selection: p.selection}
	f.Version = f.version()
	_, f.Bias = p.model.Coefficients()
	if matrices {
		coef, _ := p.model.Coefficients()
		f.Coef = matrixOf(coef)
		if p.kern != nil {
			f.Train = matrixOf(p.model.TrainRows())
		}
	}
	if f.Curve == nil {
		f.Curve = curve{}
	}
	return f
}

// MarshalJSON writes the versioned JSON form. Numbers are written as the
// shortest text that reads back to the same bits, so a loaded pipeline
// predicts exactly as the saved one.
func (p *Pipeline) MarshalJSON() ([]byte, error) { return json.Marshal(p.form(true)) }

// UnmarshalJSON reads the JSON form strictly (see the package
// documentation, "The model file"), checking everything: the format and
// version, unknown, repeated and missing fields, shapes that must agree,
// finite numbers, and the memory the feature map would take, before
// drawing it. It never panics on bad input.
func (p *Pipeline) UnmarshalJSON(b []byte) error {
	q, err := Load(bytes.NewReader(b))
	if err != nil {
		return err
	}
	*p = *q
	return nil
}

// Load reads a pipeline in its JSON form (see UnmarshalJSON).
func Load(r io.Reader) (*Pipeline, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, check.New(check.Type, "", "pipeline: reading the model file: %v", err)
	}
	f, err := readFile(b)
	if err != nil {
		return nil, err
	}
	return f.pipeline()
}

// readFile reads the JSON form strictly (internal/strict): a number that
// is null or beyond float64, a field unknown, repeated or missing, an
// integer with a fraction are refused, so that every host reads a file
// the same way (the JavaScript package hands Go the file's text).
func readFile(b []byte) (*file, error) {
	var f file
	if err := strict.Unmarshal(b, &f); err != nil {
		var e *strict.Error
		errors.As(err, &e)
		if e.Code == check.Type && e.Path == "" {
			return nil, check.New(check.Type, "", "pipeline: not a model file: %v", e)
		}
		return nil, check.New(e.Code, "", "pipeline: model file: %v", e)
	}
	return &f, nil
}

// pipeline checks a decoded file and builds the pipeline; drawn are feature
// maps the file's features may already have made (the first that matches
// is used; nil entries are skipped).
// Every check that costs no more than the file's own size comes first;
// the feature map is drawn last, once its configuration, its memory and
// the coefficients' shape are known to fit.
func (f *file) pipeline(drawn ...*rf.Map) (*Pipeline, error) {
	if err := f.checkHeader(); err != nil {
		return nil, err
	}
	// The features or the kernel take the preprocessed rows, with the bias
	// input when there is one (the schema reads Preprocess.Cols()).
	dp := f.Preprocess.OutCols()
	coef, err := f.Coef.dense("coef")
	if err != nil {
		return nil, err
	}
	p := &Pipeline{input: f.Input, classes: f.Classes, scaler: f.Preprocess, selection: f.Selection}
	switch {
	case f.Features != nil && f.Kernel == nil && f.Train == nil:
		// A saved configuration has every default written out; one that
		// fills in differently was not written by ntkrf. Resolve draws
		// nothing: it checks the map's memory, all layers at once.
		saved := f.features()
		cfg, err := saved.Resolve(dp)
		if err != nil {
			return nil, fileErr(err, check.Value)
		}
		if cfg != saved {
			return nil, bad(check.Value, "%s", configDiff(saved, cfg))
		}
		if err := f.checkDepth(cfg.Depth, cfg.Dim); err != nil {
			return nil, err
		}
		if r, _ := coef.Dims(); r != cfg.Dim {
			return nil, bad(check.Shape, "coef has %d rows, but the features make %d columns (features.dim): one row per feature", r, cfg.Dim)
		}
		// A map drawn from the same configuration for the same inputs is
		// the same map, bit for bit: assemble passes the one it fitted with.
		for _, d := range drawn {
			if d != nil && d.InputDim() == dp && d.Config() == cfg {
				p.fmap = d
				break
			}
		}
		if p.fmap == nil {
			if p.fmap, err = rf.New(cfg, dp); err != nil {
				return nil, fileErr(err, check.Value)
			}
		}
		if p.model, err = krr.NewFeatureModel(p.fmap, coef, f.Bias, f.Task, f.Lambda, f.Curve); err != nil {
			return nil, fileErr(err, check.Shape)
		}
	case f.Kernel != nil && f.Features == nil && f.Train != nil:
		ks, err := f.Kernel.Filled(dp)
		if err != nil {
			return nil, fileErr(err, check.Value)
		}
		if ks != *f.Kernel {
			return nil, bad(check.Value, "the kernel is %+v, but a saved kernel has every default written out (%+v): the file was edited or not written by ntkrf", *f.Kernel, ks)
		}
		if err := f.checkDepth(ks.Depth, 0); err != nil {
			return nil, err
		}
		p.kern = &ks
		if f.Train.Cols != dp {
			return nil, bad(check.Shape, "train has %d columns but preprocess makes %d", f.Train.Cols, dp)
		}
		train, err := f.Train.dense("train")
		if err != nil {
			return nil, err
		}
		if p.model, err = krr.NewKernelModel(ks, train, coef, f.Bias, f.Task, f.Lambda, f.Curve); err != nil {
			return nil, fileErr(err, check.Shape)
		}
	default:
		return nil, bad(check.Value, "a model has features, or a kernel with its training rows (train), not both")
	}
	return p, nil
}

// bad is an error of the model file.
func bad(code check.Code, format string, a ...any) error {
	return check.New(code, "", "pipeline: model file: "+format, a...)
}

// checkHeader checks what needs neither the feature map nor the kernel:
// the format and version, the task and its classes, λ and its curve, the
// schema and the preprocessing against each other, the selection, and the
// coefficients' columns.
func (f *file) checkHeader() error {
	if f.Format != Format {
		return bad(check.Value, "format %s; an ntkrf model has format %q", check.Quote(f.Format), Format)
	}
	if f.Version < 1 || f.Version > Version {
		return bad(check.Value, "version %d; this ntkrf reads versions 1 … %d (save the model again with this version)", f.Version, Version)
	}
	if f.Version == 1 && (f.Selection != nil || slices.ContainsFunc(f.Curve, func(c krr.CurvePoint) bool { return c.Accuracy != 0 })) {
		return bad(check.Value, "a version 1 file has no selection and no accuracy in its curve")
	}
	if f.Version < 3 && f.biased() {
		return bad(check.Value, "a version %d file has no bias input (preprocess.bias): version 3 added it", f.Version)
	}
	if f.Version < 4 && f.float32() {
		return bad(check.Value, "a version %d file has no float32 features (features.precision): version 4 added them", f.Version)
	}
	if err := f.Selection.check(); err != nil {
		return err
	}
	if !slices.Contains(krr.Tasks(), f.Task) {
		return bad(check.Value, "task %s; use one of %q", check.Quote(f.Task), krr.Tasks())
	}
	if s := f.Selection; s != nil {
		// Files written before Selection.Best have none: it follows from the candidates.
		b, err := bestCandidate(s.Candidates, f.Task == krr.Classification)
		if err != nil {
			return check.Wrap("pipeline: model file: selection", err)
		}
		s.Best = b
	}
	if !(f.Lambda > 0) {
		return bad(check.Value, "lambda %v; a fitted λ is positive", f.Lambda)
	}
	for i, c := range f.Curve {
		if !(c.Lambda > 0) || c.Score < 0 || c.Accuracy < 0 || c.Accuracy > 1 {
			return bad(check.Value, "curve[%d] holds λ %v, score %v, accuracy %v: every λ tried is positive, a score ≥ 0, an accuracy in 0 … 1", i, c.Lambda, c.Score, c.Accuracy)
		}
	}
	if f.Preprocess == nil {
		return bad(check.Value, "no preprocess")
	}
	k := 1
	if f.Task == krr.Classification {
		k = len(f.Classes)
		if k < 1 || k > krr.MaxClasses {
			return bad(check.Value, "%d class names; a classifier has 1…%d", k, krr.MaxClasses)
		}
		if err := data.ClassNames(f.Classes); err != nil {
			return bad(check.Value, "classes: %s", strings.TrimPrefix(err.Error(), "data: "))
		}
	} else if len(f.Classes) > 0 {
		return bad(check.Value, "a regression model has no classes")
	}
	if f.Input != nil {
		if err := f.Input.Check(); err != nil {
			return err
		}
		if w, d := f.Input.Width(), f.Preprocess.Cols(); w != d {
			return bad(check.Shape, "the input schema makes %d columns but preprocess takes %d", w, d)
		}
		if f.Input.Task != f.Task || !slices.Equal(f.Input.Classes, f.Classes) {
			return bad(check.Value, "the input schema's task and classes differ from the model's")
		}
		if !slices.Equal(f.Input.Groups, f.Preprocess.Groups()) {
			return bad(check.Value, "preprocess.groups differ from input.groups: the scaler imputes the blocks the schema makes")
		}
	}
	if f.Coef == nil || len(f.Bias) == 0 {
		return bad(check.Value, "no coefficients")
	}
	if f.Coef.Cols != k || len(f.Bias) != k {
		return bad(check.Shape, "coef has %d columns and bias %d values, but the model has %d outputs", f.Coef.Cols, len(f.Bias), k)
	}
	return nil
}

// checkDepth checks the selection against the model: the chosen
// candidate's preprocessing is the scaler's, its depth the model's (0 when
// the depth was fixed, or the kernel has none), and the method 'auto'
// chose, when it chose one, the model's: the exact kernel (dim 0) or
// features of dim columns.
func (f *file) checkDepth(depth, dim int) error {
	s := f.Selection
	if s == nil {
		return nil
	}
	c := s.Candidates[s.Chosen]
	if c.Preprocess != f.Preprocess.Prep() || c.Depth != 0 && c.Depth != depth {
		return bad(check.Value, "selection: the chosen candidate (depth %d, %+v) is not the model (depth %d, %+v)", c.Depth, c.Preprocess, depth, f.Preprocess.Prep())
	}
	if s.Method == MethodKernel && dim != 0 || s.Method == MethodFeatures && s.Dim != dim {
		return bad(check.Value, "selection: the method chosen (%s, dim %d) is not the model's (dim %d; 0: the exact kernel)", check.Quote(s.Method), s.Dim, dim)
	}
	return nil
}

// dense checks a matrix of the file and returns it.
func (m *jsonMatrix) dense(name string) (*mat.Dense, error) {
	if m.Rows <= 0 || m.Cols <= 0 || len(m.Data)/m.Cols != m.Rows || len(m.Data)%m.Cols != 0 {
		return nil, check.New(check.Shape, "", "pipeline: model file: %s is %d×%d but holds %d numbers", name, m.Rows, m.Cols, len(m.Data))
	}
	M := mat.NewDense(m.Rows, m.Cols, m.Data)
	if err := check.Matrix(name, M); err != nil {
		return nil, check.Wrap("pipeline: model file", err)
	}
	return M, nil
}

// fileErr is an error of rf's, kernel's or krr's checks, as a fault of
// the file: its code when it has one (ERR_NONFINITE, ERR_TOO_LARGE), else
// fallback.
func fileErr(err error, fallback check.Code) error {
	var e *check.Error
	code := fallback
	if errors.As(err, &e) && e.Code != check.Option {
		// A setting out of range is an option's fault in a call, the
		// file's here.
		code = e.Code
	}
	return check.New(code, "", "pipeline: model file: %s", pkgPrefix().ReplaceAllString(err.Error(), ""))
}

// pkgPrefix is the package prefix of a core error ("rf: "), dropped when
// the error is quoted as the file's. Compiled when first needed, not as
// the program starts (a WebAssembly instance's start is the page's wait).
var pkgPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(rf|krr|kernel|core|data): `) })

// Decode reads the JSON form without its coef and train matrices, which a
// host moves separately (as typed arrays), and checks the whole once they
// are given. Hosts use it with Split. A model fitted in this process
// takes the feature map its plan drew (of the plans decoded last,
// protocol.DecodePlan), bit for bit the map drawn from its configuration,
// instead of drawing it again (0.3–0.5 s per worker on the package's standard job in
// WebAssembly).
func Decode(header []byte, coef, train *mat.Dense) (*Pipeline, error) {
	return decodeReusing(header, coef, train, drawnMaps())
}

// decodeReusing is Decode with feature maps already drawn: the first one
// drawn from the model's configuration for its inputs is the model's map
// and is used instead of drawing it again; the others are ignored.
func decodeReusing(header []byte, coef, train *mat.Dense, drawn []*rf.Map) (*Pipeline, error) {
	f, err := readFile(header)
	if err != nil {
		return nil, err
	}
	if f.Coef != nil || f.Train != nil {
		return nil, check.New(check.Type, "", "pipeline: the model header must not hold coef or train; they travel separately")
	}
	f.Coef, f.Train = matrixOf(coef), matrixOf(train)
	return f.pipeline(drawn...)
}

// Split returns the JSON form without its coef and train matrices (they
// are null), and those matrices (train is nil for a random-feature model).
func (p *Pipeline) Split() (header []byte, coef, train *mat.Dense, err error) {
	header, err = json.Marshal(p.form(false))
	coef, _ = p.model.Coefficients()
	if p.kern != nil {
		train = p.model.TrainRows()
	}
	return header, coef, train, err
}

// configDiff names the first field where a file's feature configuration
// differs from the one it fills in to.
func configDiff(file, filled rf.Config) string {
	var a, b map[string]any
	ja, _ := json.Marshal(file)
	jb, _ := json.Marshal(filled)
	json.Unmarshal(ja, &a)
	json.Unmarshal(jb, &b)
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if a[k] != b[k] {
			return fmt.Sprintf("features.%s is %v, but a saved configuration has %v there (every default written out): the file was edited or not written by ntkrf", k, a[k], b[k])
		}
	}
	return "the features are not a saved configuration"
}

// check validates a selection read from a file (nil is none).
func (s *Selection) check() error {
	if s == nil {
		return nil
	}
	bad := func(format string, a ...any) error {
		return check.New(check.Value, "", "pipeline: model file: selection: "+format, a...)
	}
	if s.Rows < 1 || s.Criterion == "" || len(s.Candidates) == 0 || s.Chosen < 0 || s.Chosen >= len(s.Candidates) {
		return bad("rows %d, criterion %s, %d candidates, chosen %d: a selection scores at least one candidate on at least one row and chooses one of them", s.Rows, check.Quote(s.Criterion), len(s.Candidates), s.Chosen)
	}
	for _, c := range s.Candidates {
		if c.Depth < 0 || c.Depth > kernel.MaxDepth || !(c.Lambda > 0) || !(c.Score >= 0) || c.Accuracy < 0 || c.Accuracy > 1 || !(c.StdErr >= 0) {
			return bad("a candidate holds depth %d, λ %v, score %v, accuracy %v, standard error %v", c.Depth, c.Lambda, c.Score, c.Accuracy, c.StdErr)
		}
		if c.Rows < 0 || c.Rows > s.Rows || s.Screen == 0 && c.Rows != 0 || s.Screen > 0 && c.Rows != s.Screen && c.Rows != s.Rows {
			return bad("a candidate scored on %d rows; the selection screened on %d and scored on %d", c.Rows, s.Screen, s.Rows)
		}
	}
	switch {
	case s.Method != "" && s.Method != MethodKernel && s.Method != MethodFeatures:
		return bad("method %s; 'auto' chooses %q or %q", check.Quote(s.Method), MethodKernel, MethodFeatures)
	case s.Method == MethodFeatures && s.Dim < 1, s.Method != MethodFeatures && s.Dim != 0:
		return bad("method %s with dim %d: features have a dim ≥ 1, the exact kernel none", check.Quote(s.Method), s.Dim)
	case !(s.Seconds >= 0) || !(s.SearchSeconds >= 0) || math.IsInf(s.Seconds+s.SearchSeconds, 0):
		return bad("modelled seconds %v and %v; they are finite and ≥ 0", s.Seconds, s.SearchSeconds)
	}
	return nil
}
