package errs

import (
	"slices"
	"strings"
	"unicode"
)

// The error grammar: "what went wrong; what to do". The advice is the
// last clause after "; " when it starts with one of these imperative verbs
// (a clause after "; " that starts otherwise is part of the fault: "…; the
// file has 3 columns").
var adviceVerbs = map[string]bool{
	"use": true, "raise": true, "set": true, "give": true, "pass": true, "encode": true, "lower": true,
	"reduce": true, "increase": true, "choose": true, "remove": true, "standardize": true, "wrap": true,
	"try": true, "call": true, "save": true, "check": true, "split": true, "drop": true, "create": true,
	"leave": true, "fit": true, "parse": true, "name": true, "make": true, "merge": true, "solve": true,
	"add": true, "keep": true, "open": true, "load": true, "write": true, "rescale": true,
}

// AdviceVerbs are the verbs that start an advice clause, sorted: the
// grammar a host that makes its own messages (the JavaScript package's
// type checks) splits them by.
func AdviceVerbs() []string {
	v := make([]string, 0, len(adviceVerbs))
	for w := range adviceVerbs {
		v = append(v, w)
	}
	slices.Sort(v)
	return v
}

// split returns msg's fault and advice by the grammar.
func split(msg string) (fault, advice string) {
	i := strings.LastIndex(msg, "; ")
	if i < 0 {
		return msg, ""
	}
	tail := msg[i+2:]
	end := strings.IndexFunc(tail, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(tail)
	}
	if !adviceVerbs[strings.ToLower(tail[:end])] {
		return msg, ""
	}
	return msg[:i], tail
}

// Advice is what the error says to do (the clause after the last "; "
// that starts with an imperative: "raise classes", "leave the task
// unset"), or "" when it says nothing: a host shows it apart (a page
// offers its own controls for it) without parsing the message.
func (e *Error) Advice() string {
	_, a := split(e.Msg)
	return a
}

// Fault is the message without its advice and without the names of the
// Go packages that wrapped it ("krr: featurizing the rows: rf: the
// features…" is "featurizing the rows: the features…"): what went wrong,
// as a user who called no Go package reads it.
func (e *Error) Fault() string {
	f, _ := split(e.Msg)
	return unprefixed(f)
}

// packages are the names Go's messages start with, and wrapped messages
// repeat after ": ".
var packages = []string{"core", "check", "kernel", "linalg", "rf", "krr", "metrics", "active", "data", "pipeline", "jsbridge", "playground", "gram"}

// TrimPackages drops the names of the Go packages msg starts with
// ("krr: rf: x" is "x"): a host that prefixes its own method name shows
// no package of the core.
func TrimPackages(msg string) string {
	for {
		n := packageAt(msg)
		if n == 0 {
			return msg
		}
		msg = msg[n:]
	}
}

// packageAt is the length of the package name and ": " msg starts with,
// 0 when it starts with none.
func packageAt(msg string) int {
	for _, p := range packages {
		if strings.HasPrefix(msg, p+": ") {
			return len(p) + 2
		}
	}
	return 0
}

// unprefixed drops every package name that starts msg or follows ": ".
func unprefixed(msg string) string {
	var b strings.Builder
	for {
		msg = TrimPackages(msg)
		i := strings.Index(msg, ": ")
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		b.WriteString(msg[:i+2])
		msg = msg[i+2:]
	}
}
