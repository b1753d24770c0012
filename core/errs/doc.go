// Package errs holds the error type every layer of ntkrf returns for faults
// a caller can act on, and the stable codes that classify them. It imports
// nothing of ntkrf, so every package may use it.
//
// A Go caller reads the code with errors.As or CodeOf:
//
//	var e *errs.Error
//	if errors.As(err, &e) && e.Code == errs.Option {
//		log.Printf("fix option %s: %s", e.Option, e.Msg)
//	}
//
// A code says what kind of fault it is; hosts map it to their own error
// classes (the JavaScript package turns ERR_TYPE and ERR_UNKNOWN_OPTION into
// TypeError, the value and shape codes into RangeError, the rest into Error),
// so the same cause gives the same error wherever it is detected. Every
// error a public function of ntkrf/core returns carries a code; one without
// is a bug.
package errs
