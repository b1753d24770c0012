package jsbridge

// ops is the table of operations the JavaScript package can call, one
// line each: every operation is a named function that converts its
// arguments, makes one core call and converts the result.
var ops = map[string]opFunc{
	"accumulate":   opAccumulate,
	"compare":      opCompare,
	"features":     opFeatures,
	"fitFeatures":  opFitFeatures,
	"fitKernel":    opFitKernel,
	"fitScaler":    opFitScaler,
	"kernel":       opKernel,
	"kfold":        opKfold,
	"loadModel":    opLoadModel,
	"parseCSV":     opParseCSV,
	"plan":         opPlan,
	"predict":      opPredict,
	"predictCSV":   opPredictCSV,
	"preprocess":   opPreprocess,
	"previewCSV":   opPreviewCSV,
	"score":        opScore,
	"select":       opSelect,
	"selectActive": opSelectActive,
	"solve":        opSolve,
	"split":        opSplit,
	"stats":        opStats,
}
