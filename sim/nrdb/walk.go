package nrdb

import (
	"strings"
	"time"
)

func walkCalls(e *Expr, fn func(*Call)) {
	if e == nil {
		return
	}
	walkTerm(e.Left, fn)
	for _, r := range e.Right {
		walkTerm(r.Term, fn)
	}
}

func walkTerm(t *Term, fn func(*Call)) {
	walkFactor(t.Left, fn)
	for _, r := range t.Right {
		walkFactor(r.Factor, fn)
	}
}

func walkFactor(f *Factor, fn func(*Call)) {
	switch {
	case f.Call != nil:
		fn(f.Call)
		for _, a := range f.Call.Args {
			walkCalls(a.Expr, fn)
		}
	case f.Group != nil:
		walkCalls(f.Group, fn)
	}
}

// aggregateOf returns the call when e is exactly one aggregate call.
func aggregateOf(e *Expr) *Call {
	if e == nil || len(e.Right) != 0 || len(e.Left.Right) != 0 || e.Left.Left.Neg {
		return nil
	}
	f := e.Left.Left
	if f.Group != nil {
		return aggregateOf(f.Group)
	}
	if f.Call != nil && isAggregate(f.Call.Name) {
		return f.Call
	}
	return nil
}

func isAggregate(name string) bool {
	switch strings.ToLower(name) {
	case "eventtype":
		return false
	}
	_, ok := arity[strings.ToLower(name)]
	return ok
}

// constant returns the value of a numeric literal expression.
func constant(e *Expr) *float64 {
	if e == nil || len(e.Right) != 0 || len(e.Left.Right) != 0 || e.Left.Left.Number == nil {
		return nil
	}
	v := *e.Left.Left.Number
	if e.Left.Left.Neg {
		v = -v
	}
	return &v
}

func unitDuration(u string) (time.Duration, bool) {
	switch strings.ToLower(strings.TrimSuffix(strings.ToLower(u), "s")) {
	case "second", "sec":
		return time.Second, true
	case "minute", "min":
		return time.Minute, true
	case "hour", "hr":
		return time.Hour, true
	case "day":
		return 24 * time.Hour, true
	case "week":
		return 7 * 24 * time.Hour, true
	}
	return 0, false
}
