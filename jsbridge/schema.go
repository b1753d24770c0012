package jsbridge

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"ntkrf/core/active"
	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/core/names"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// Opt describes one option of the JavaScript API: its type, its limits and
// its default. The table below is the one place these are written: the
// bridge checks every call against it, and the package (index.js) receives
// it when a worker starts and checks options with it before anything
// crosses to Go, so both give the same error for the same value.
type Opt struct {
	Name string `json:"name"`
	// Kind is "int", "number", "bool", "string", "enum", "char" (one
	// character), "object" (Fields), "array" (of Items), "nameOrIndex" (a
	// string, or an integer index) or "any" (checked by the operation).
	Kind string `json:"kind"`
	// Auto, when set, is the word (names.Auto, "auto") accepted too: the
	// setting is left to the core, which chooses it for the data. The
	// package reads the word from here, so it is written once.
	Auto   string   `json:"auto,omitempty"`
	Enum   []string `json:"enum,omitempty"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	MinGT  bool     `json:"minExclusive,omitempty"` // the value must be > Min
	MaxLT  bool     `json:"maxExclusive,omitempty"` // the value must be < Max
	Fields []Opt    `json:"fields,omitempty"`
	Items  *Opt     `json:"items,omitempty"`
	// Default is the value used when the option is not given (nil: none,
	// or one that depends on the data, told in Doc).
	Default any `json:"default,omitempty"`
	// DefaultPerCol, when set, makes the default this value divided by the
	// input's columns (gamma: kernel.DefaultGamma).
	DefaultPerCol *float64 `json:"defaultPerCol,omitempty"`
	// Uses maps each value of an enum to the options it reads (method:
	// rf.Uses); the others change nothing for that value.
	Uses map[string][]string `json:"uses,omitempty"`
	Doc  string              `json:"doc"`
}

func f(v float64) *float64 { return &v }

// methodUses is rf.Uses for every method.
func methodUses() map[string][]string {
	m := map[string][]string{}
	for _, name := range rf.Methods() {
		m[string(name)] = rf.Uses(name)
	}
	return m
}

// enum is a list of names as the schema writes them.
func enum[T ~string](names []T) []string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return s
}

// maxCount bounds a count the core bounds by the data (selectActive's k
// by the rows, kfold's k by the rows and data.MaxIndices): it only keeps
// the number an int everywhere.
const maxCount = 1 << 31

// maxSeed is the largest seed (2^53−1, what JavaScript numbers carry
// exactly): rf's, which every host applies.
const maxSeed = rf.MaxSeed

// Every name, default and limit below comes from the core package that
// applies it; the table only says how the JavaScript API spells them.
var (
	optDepth = Opt{Name: "depth", Kind: "int", Min: f(1), Max: f(kernel.MaxDepth), Default: kernel.DefaultDepth,
		Doc: "network depth L"}
	optSeed = Opt{Name: "seed", Kind: "int", Min: f(0), Max: f(maxSeed), Default: 0,
		Doc: "seed of every random draw; the same seed gives the same bits everywhere"}
	optGamma = Opt{Name: "gamma", Kind: "number", Min: f(0), MinGT: true, DefaultPerCol: f(kernel.DefaultGamma(1)),
		Doc: fmt.Sprintf("RBF scale γ of exp(−γ‖x−z‖²); default %g / cols", kernel.DefaultGamma(1))}
	optDim = func(name, doc string, def any) Opt {
		return Opt{Name: name, Kind: "int", Min: f(1), Max: f(rf.MaxDim), Default: def, Doc: doc}
	}
	featureOpts = []Opt{
		{Name: "method", Kind: "enum", Enum: enum(rf.Methods()), Default: string(rf.NTK), Uses: methodUses(),
			Doc: "which random features"},
		optDepth,
		optDim("dim", "output dimension m (fitRidge given no kernel and no width: 'auto' fits the exact NTK or chooses m by the core's cost model, see selection.method)", rf.DefaultDim),
		optDim("sketchDim", "TensorSketch / TensorSRHT output dimension m_cs (ntk; default dim − m1; not with sketch split)", nil),
		optDim("m0", "number of Step (arc-cosine order 0) features (default m1; split: sign features per layer, default the last |·| width)", nil),
		optDim("m1", "number of ReLU features (default dim/2 for ntk; not with sketch split)", nil),
		{Name: "sketch", Kind: "enum", Enum: enum(rf.Sketches()), Default: string(rf.SketchAuto),
			Doc: "how ntk builds its features: split (the linear part exact), the paper's tensorsketch or tensorsrht, or auto: " + rf.SketchRule},
		{Name: "sampler", Kind: "enum", Enum: enum(rf.Samplers()), Default: string(rf.Exact),
			Doc: "how the ReLU directions are drawn"},
		{Name: "gibbsSweeps", Kind: "int", Min: f(1), Max: f(rf.MaxGibbsSweeps), Default: rf.DefaultGibbsSweeps, Doc: "Gibbs sweeps of the gibbs sampler"},
		{Name: "normalize", Kind: "bool", Default: false, Doc: "scale every feature row to unit norm"},
		optGamma,
		optSeed,
		// No Default: it depends on the method and sampler (rf.DefaultPrecision).
		{Name: "precision", Kind: "enum", Enum: enum(rf.Precisions()),
			Doc: "arithmetic of the projections: float32 (twice the SIMD lanes, the same bits on every host) or float64 (the reference); default " + rf.PrecisionRule},
	}
	kernelOpts = []Opt{
		{Name: "kernel", Kind: "enum", Enum: enum(kernel.Names()), Default: string(kernel.NameNTK), Doc: "exact kernel (linear: XZᵀ, the NTK of depth 0)"},
		optDepth,
		optGamma,
	}
	// A fit chooses what is "auto" (pipeline.Select): the depth among
	// search.depths, the preprocessing among search.preprocess.
	optDepthAuto = Opt{Name: "depth", Kind: "int", Auto: names.Auto, Min: f(1), Max: f(kernel.MaxDepth), Default: names.Auto,
		Doc: "network depth L, or \"auto\": chosen among search.depths by exact leave-one-out with the exact kernel on search.rows rows"}
	fitFeatureOpts = withDepthAuto(featureOpts)
	fitKernelOpts  = withDepthAuto(kernelOpts)
	prepOpts       = []Opt{
		{Name: "standardize", Kind: "bool", Default: true, Doc: "centre and scale every column on the training rows"},
		{Name: "unitNorm", Kind: "bool", Default: false, Doc: "then scale every row to unit norm"},
		{Name: "bias", Kind: "number", Min: f(0), Max: f(data.MaxBias),
			Doc: "then append a constant input to every row, this many times the training rows' root-mean-square norm (0: none): the NTK of a ReLU network with first-layer biases, which is not positively homogeneous; \"auto\" tries " + fmt.Sprint(data.DefaultBias)},
	}
	groupOpt = Opt{Name: "groups", Kind: "array", Items: &Opt{Name: "group", Kind: "object", Fields: []Opt{
		{Name: "column", Kind: "int", Min: f(0), Max: f(data.MaxColumns - 1)},
		{Name: "start", Kind: "int", Min: f(0), Max: f(data.MaxColumns - 1)},
		{Name: "width", Kind: "int", Min: f(1), Max: f(data.MaxColumns)},
		{Name: "categorical", Kind: "bool"},
	}}, Doc: "column groups of a Dataset (parseCSV), for one-hot columns"}
	taskOpt = Opt{Name: "task", Kind: "enum", Enum: enum(krr.Tasks()),
		Doc: "required when y holds whole numbers; otherwise regression"}
	// 0 is krr's "not given" (Options.Classes): a regression dataset's
	// classes.length passes as it is.
	classesOpt = Opt{Name: "classes", Kind: "int", Min: f(0), Max: f(krr.MaxClasses),
		Doc: "number of classes; 0 (as when left out): the largest label + 1 for classification, none for regression"}
)

// Schema lists, for every method of the JavaScript engine, the options it
// takes besides signal and onProgress.
var Schema = map[string][]Opt{
	"kernel":   kernelOpts,
	"features": featureOpts,
	"fitRidge": {
		{Name: "features", Kind: "object", Fields: fitFeatureOpts, Doc: "random features (primal fit); the default"},
		{Name: "kernel", Kind: "object", Fields: fitKernelOpts, Doc: "an exact kernel instead (dual fit)"},
		{Name: "lambda", Kind: "number", Auto: names.Auto, Min: f(check.MinLambda), Default: names.Auto,
			Doc: "ridge λ (at least the smallest normal number: a subnormal λ regularizes nothing), or \"auto\" (chosen by the criterion over the grid)"},
		{Name: "criterion", Kind: "enum", Enum: enum(krr.Criteria()),
			Doc: "how \"auto\" chooses λ (default " + krr.CriterionRule + ")"},
		{Name: "grid", Kind: "array", Items: &Opt{Name: "λ", Kind: "number", Min: f(check.MinLambda)}, Max: f(krr.MaxGrid),
			Doc: "candidate λ values for \"auto\" (default: " + krr.GridRule + ")"},
		// No Default: it depends on the task and the features' precision (krr.DefaultGram).
		{Name: "gram", Kind: "enum", Enum: enum(rf.Precisions()),
			Doc: "arithmetic of the Gram step ΦᵀΦ of a primal fit: float32 (blocks summed in float32, added in float64: faster where the engine has float32 SIMD) or float64 (the reference); default " + krr.GramRule},
		taskOpt,
		classesOpt,
		{Name: "preprocess", Kind: "object", Auto: names.Auto, Fields: prepOpts, Default: names.Auto,
			Doc: "preprocessing fitted on the training rows, or \"auto\": chosen among search.preprocess with the depth"},
		{Name: "search", Kind: "object", Fields: []Opt{
			{Name: "depths", Kind: "array", Items: &Opt{Name: "depth", Kind: "int", Min: f(1), Max: f(kernel.MaxDepth)}, Max: f(kernel.MaxDepth),
				Default: pipeline.DefaultDepths(), Doc: "depths tried when depth is \"auto\""},
			{Name: "preprocess", Kind: "array", Items: &Opt{Name: "preprocessing", Kind: "object", Fields: prepOpts}, Max: f(pipeline.MaxSearchPreprocess),
				Default: pipeline.DefaultPreprocess(), Doc: "preprocessings tried when preprocess is \"auto\""},
			{Name: "rows", Kind: "int", Min: f(pipeline.MinSearchRows), Max: f(pipeline.MaxSearchRows), Default: pipeline.DefaultSearchRows,
				Doc: "training rows (a seeded sample) the candidates are scored on; each costs one eigendecomposition of that size (default " + strconv.Itoa(pipeline.DefaultSearchRows) + ", fewer when many classes would make a candidate's leave-one-out dearer than that; see Go's pipeline.Search.Rows)"},
		}, Doc: "candidates of the \"auto\" settings"},
		groupOpt,
	},
	"compare": {
		{Name: "features", Kind: "object", Fields: featureOpts, Doc: "the random features to compare"},
		{Name: "kernel", Kind: "object", Fields: kernelOpts, Doc: "the exact kernel (default: the one the features approximate)"},
		{Name: "lambda", Kind: "number", Min: f(0), Default: 0, Doc: fmt.Sprintf("λ of the spectral error; 0 means %g · rows", metrics.SpectralLambdaPerRow)},
		{Name: "matrices", Kind: "bool", Default: false, Doc: "also return K and ΦΦᵀ"},
		{Name: "preprocess", Kind: "object", Fields: prepOpts, Doc: "preprocessing before both"},
		groupOpt,
	},
	"selectActive": {
		{Name: "features", Kind: "object", Fields: featureOpts, Doc: "the random features of the design"},
		{Name: "k", Kind: "int", Min: f(1), Max: f(maxCount), Doc: "number of rows to pick (required)"},
		{Name: "lambda", Kind: "number", Min: f(check.MinLambda), Default: active.DefaultLambda, Doc: "ridge λ of the design criterion"},
		{Name: "preprocess", Kind: "object", Fields: prepOpts, Doc: "preprocessing before the features"},
		groupOpt,
	},
	"score": {
		{Name: "task", Kind: "enum", Enum: enum(krr.Tasks()),
			Doc: "classification adds accuracy and the confusion matrix; required when yTrue holds whole numbers (as for fitRidge), otherwise regression"},
		{Name: "classes", Kind: "int", Min: f(0), Max: f(krr.MaxClasses), Doc: "number of classes, which implies classification; 0 (as when left out): the largest label + 1, the task decided as fitRidge decides it"},
	},
	"parseCSV": {
		{Name: "target", Kind: "nameOrIndex", Min: f(0), Max: f(data.MaxColumns - 1),
			Doc: "the column to predict: a name (a string is always a name, even one written in digits), or a 0-based index (a number is always an index); default the last column"},
		{Name: "exclude", Kind: "array", Items: &Opt{Name: "column", Kind: "string"}, Max: f(data.MaxColumns),
			Doc: "column names to leave out of X (an identifier, say), matched as target names are; the model reads new files without them"},
		{Name: "task", Kind: "enum", Enum: data.ParseTasks(), Default: names.Auto, Doc: "what the target is"},
		{Name: "missing", Kind: "enum", Enum: data.MissingSettings(), Default: data.Impute, Doc: "rows with missing features"},
		{Name: "delimiter", Kind: "char", Doc: "field separator (default: detected)"},
		{Name: "header", Kind: "enum", Enum: data.HeaderSettings(), Default: names.Auto, Doc: "whether the first row names the columns"},
		{Name: "maxBytes", Kind: "int", Min: f(1), Max: f(data.MaxBytesLimit), Default: data.DefaultMaxBytes, Doc: "largest input, after decompression"},
	},
	"previewCSV": {
		{Name: "rows", Kind: "int", Min: f(data.MinPreviewRows), Max: f(data.MaxPreviewRows), Default: data.DefaultPreviewRows, Doc: "data rows to return"},
		{Name: "delimiter", Kind: "char", Doc: "field separator (default: detected)"},
		{Name: "header", Kind: "enum", Enum: data.HeaderSettings(), Default: names.Auto, Doc: "whether the first row names the columns"},
		{Name: "maxBytes", Kind: "int", Min: f(1), Max: f(data.MaxBytesLimit), Default: data.DefaultMaxBytes, Doc: "largest input accepted"},
	},
	"split": {
		{Name: "testFraction", Kind: "number", Min: f(0), Max: f(1), MinGT: true, MaxLT: true, Default: data.DefaultTestFraction, Doc: "share of rows in the test part"},
		optSeed,
	},
	"kfold": {
		{Name: "k", Kind: "int", Min: f(data.MinFolds), Max: f(maxCount), Default: data.DefaultFolds, Doc: "number of folds"},
		optSeed,
	},
	"predict":   {},
	"loadModel": {},
	"stats":     {},
	"predictCSV": {
		{Name: "maxBytes", Kind: "int", Min: f(1), Max: f(data.MaxBytesLimit), Default: data.DefaultMaxBytes, Doc: "largest input, after decompression"},
	},
	"preprocess": {
		{Name: "preprocess", Kind: "object", Fields: prepOpts, Doc: "preprocessing fitted on X itself"},
		groupOpt,
	},
	"ensembleVariance": {
		optDepth,
		{Name: "lambda", Kind: "number", Min: f(check.MinLambda),
			Doc: "ridge λ of the training, required (the NTK ridge regression whose mean the ensemble has)"},
		{Name: "preprocess", Kind: "object", Fields: prepOpts, Doc: "preprocessing fitted on X, applied to X and Z"},
		groupOpt,
	},
}

// opSchema maps the bridge's operations to the engine method whose
// options they take (several operations serve fitRidge).
var opSchema = map[string]string{
	"kernel": "kernel", "features": "features", "compare": "compare", "selectActive": "selectActive",
	"score": "score", "parseCSV": "parseCSV", "previewCSV": "previewCSV", "split": "split", "kfold": "kfold",
	"fitPlan": "fitRidge", "fitStats": "fitRidge", "fitPart": "fitRidge", "fitSolve": "fitRidge",
	"fitShip": "fitRidge", "fitDrop": "fitRidge",
	"select": "fitRidge", "predict": "predict", "loadModel": "loadModel",
	"predictCSV": "predictCSV", "readCSV": "predictCSV", "preprocess": "preprocess", "ensembleVariance": "ensembleVariance",
	"stats": "stats",
}

// goNamesOf returns a replacer from the Go spelling of every option of
// the schema, as core's messages write it (Config.SketchDim for rf.Config's
// fields, Options.MaxBytes for krr's and data's), to its JavaScript name:
// a Go field is its option's name with the first letter upper-cased.
// Longer names come first, so Config.SketchDim is not read as
// Config.Sketch followed by "Dim".
func goNamesOf(schema map[string][]Opt) *strings.Replacer {
	seen := map[string]bool{}
	var walk func([]Opt)
	walk = func(opts []Opt) {
		for _, o := range opts {
			seen[o.Name] = true
			walk(o.Fields)
		}
	}
	for _, opts := range schema {
		walk(opts)
	}
	var js []string
	for n := range seen {
		js = append(js, n)
	}
	slices.SortFunc(js, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	var pairs []string
	for _, n := range js {
		field := strings.ToUpper(n[:1]) + n[1:]
		pairs = append(pairs, "Config."+field, n, "Options."+field, n)
	}
	return strings.NewReplacer(pairs...)
}

// SchemaJSON is Schema as the package receives it.
func SchemaJSON() []byte {
	b, err := json.Marshal(Schema)
	if err != nil {
		panic(err) // a static table: a test covers it
	}
	return b
}

// checkOptions checks the options of args that the op's engine method
// documents; the rest (the matrices and internal fields the package adds)
// are left to decode.
func checkOptions(op string, args []byte) error {
	method, ok := opSchema[op]
	if !ok {
		return nil
	}
	var obj map[string]json.RawMessage
	if len(bytes.TrimSpace(args)) == 0 {
		return nil
	}
	if err := json.Unmarshal(args, &obj); err != nil {
		return check.New(check.Type, "", "%s: options must be a JSON object: %v", op, err)
	}
	for _, o := range Schema[method] {
		if raw, ok := obj[o.Name]; ok {
			if err := checkValue(op, o.Name, o, raw); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkValue(op, path string, o Opt, raw json.RawMessage) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return check.New(check.Type, path, "%s: %s is not valid JSON", op, path)
	}
	return checkOpt(op, path, o, v)
}

// check validates one decoded value; numbers are json.Number.
func checkOpt(op, path string, o Opt, v any) error {
	bad := func(code check.Code) error {
		return check.New(code, path, "%s: %s must be %s, got %s", op, path, Expect(o), show(v))
	}
	if s, ok := v.(string); ok && o.Auto != "" {
		if s != o.Auto {
			return bad(check.Option)
		}
		return nil
	}
	switch o.Kind {
	case "any":
		return nil
	case "bool":
		if _, ok := v.(bool); !ok {
			return bad(check.Type)
		}
	case "string":
		if _, ok := v.(string); !ok {
			return bad(check.Type)
		}
	case "char":
		s, ok := v.(string)
		if !ok {
			return bad(check.Type)
		}
		if len([]rune(s)) != 1 {
			return bad(check.Option)
		}
	case "enum":
		s, ok := v.(string)
		if !ok {
			return bad(check.Type)
		}
		if !slices.Contains(o.Enum, s) {
			return bad(check.Option)
		}
	case "int", "number":
		n, ok := v.(json.Number)
		if !ok {
			return bad(check.Type)
		}
		x, err := strconv.ParseFloat(string(n), 64)
		if err != nil || !inRange(o, x) || (o.Kind == "int" && x != math.Trunc(x)) {
			return bad(check.Option)
		}
	case "nameOrIndex":
		switch t := v.(type) {
		case string:
		case json.Number:
			x, err := strconv.ParseFloat(string(t), 64)
			if err != nil || !inRange(o, x) || x != math.Trunc(x) {
				return bad(check.Option)
			}
		default:
			return bad(check.Type)
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return bad(check.Type)
		}
		names := make([]string, len(o.Fields))
		for i, fo := range o.Fields {
			names[i] = fo.Name
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the same key named whatever the map's order
		for _, k := range keys {
			if !slices.Contains(names, k) {
				k = check.Cut(k)
				return check.New(check.UnknownOption, path+"."+k, "%s: unknown option %s.%s; %s takes %s", op, path, k, path, strings.Join(names, ", "))
			}
		}
		for _, fo := range o.Fields {
			if fv, ok := m[fo.Name]; ok {
				if err := checkOpt(op, path+"."+fo.Name, fo, fv); err != nil {
					return err
				}
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return bad(check.Type)
		}
		if o.Max != nil && float64(len(a)) > *o.Max {
			return check.New(check.Option, path, "%s: %s has %d entries; at most %v are allowed", op, path, len(a), *o.Max)
		}
		for i, it := range a {
			if err := checkOpt(op, fmt.Sprintf("%s[%d]", path, i), *o.Items, it); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("jsbridge: option %s has unknown kind %q", path, o.Kind)
	}
	return nil
}

func inRange(o Opt, x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	if o.Min != nil && (x < *o.Min || (o.MinGT && x == *o.Min)) {
		return false
	}
	if o.Max != nil && (x > *o.Max || (o.MaxLT && x == *o.Max)) {
		return false
	}
	return true
}

// Expect says in words what an option accepts: "an integer in 0…64".
// index.js words it the same way (expect()); a test compares them.
func Expect(o Opt) string {
	if o.Auto != "" {
		b := o
		b.Auto = ""
		return strconv.Quote(o.Auto) + " or " + Expect(b)
	}
	switch o.Kind {
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case "char":
		return "a single character"
	case "enum":
		q := make([]string, len(o.Enum))
		for i, e := range o.Enum {
			q[i] = strconv.Quote(e)
		}
		return "one of " + strings.Join(q, ", ")
	case "int":
		return "an integer " + span(o)
	case "number":
		return "a finite number " + span(o)
	case "nameOrIndex":
		return "a column name or an integer index " + span(o)
	case "object":
		return "an object"
	case "array":
		if o.Items != nil {
			return "an array of " + strings.TrimPrefix(strings.TrimPrefix(Expect(*o.Items), "a "), "an ") + "s"
		}
		return "an array"
	}
	return "valid"
}

// span words a numeric range: "in 0…64", "> 0", "in (0, 1)".
func span(o Opt) string {
	num := func(x float64) string {
		if x == maxSeed {
			return "2^53−1"
		}
		// As JavaScript prints numbers: plain digits from 1e-6 to 1e21.
		if a := math.Abs(x); a == 0 || (a >= 1e-6 && a < 1e21) {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	switch {
	case o.Min != nil && o.Max != nil && !o.MinGT && !o.MaxLT:
		return "in " + num(*o.Min) + "…" + num(*o.Max)
	case o.Min != nil && o.Max != nil:
		l, r := "[", "]"
		if o.MinGT {
			l = "("
		}
		if o.MaxLT {
			r = ")"
		}
		return "in " + l + num(*o.Min) + ", " + num(*o.Max) + r
	case o.Min != nil && o.MinGT:
		return "> " + num(*o.Min)
	case o.Min != nil:
		return "≥ " + num(*o.Min)
	case o.Max != nil:
		return "≤ " + num(*o.Max)
	}
	return ""
}

// show renders a decoded JSON value for a message, as JavaScript would
// print it.
func show(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return check.Quote(t)
	case json.Number:
		return check.Cut(string(t))
	case bool:
		return strconv.FormatBool(t)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprint(v)
}

// withDepthAuto is opts with its depth "auto" by default, as fitRidge
// takes it.
func withDepthAuto(opts []Opt) []Opt {
	out := slices.Clone(opts)
	for i, o := range out {
		if o.Name == "depth" {
			out[i] = optDepthAuto
		}
	}
	return out
}
