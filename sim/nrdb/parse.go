package nrdb

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// SyntaxError is an NRQL text the engine cannot parse or does not support.
type SyntaxError struct {
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// ErrorClass is the NerdGraph error class the simulator reports for it.
func (e *SyntaxError) ErrorClass() string { return "NRQL_SYNTAX_ERROR" }

// Parser parses NRQL; it is safe for concurrent use.
type Parser struct {
	once sync.Once
	p    *participle.Parser[Query]
	err  error
}

// Parse parses one NRQL statement.
func (ps *Parser) Parse(nrql string) (*Query, error) {
	ps.once.Do(func() { ps.p, ps.err = newParser() })
	if ps.err != nil {
		return nil, ps.err
	}
	q, err := ps.p.ParseString("", nrql)
	if err != nil {
		return nil, syntaxError(err)
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	q.prepare()
	return q, nil
}

// prepare decodes the values of every IN list once, before the query is shared: a
// scan compares each row with them (an application list's inventory compares ~180,000
// rows with 200 application ids), and decoding them per row was most of the
// simulator's NRQL time.
func (q *Query) prepare() {
	prepareCalls := func(e *Expr) {
		walkCalls(e, func(c *Call) {
			for _, a := range c.Args {
				prepareCond(a.Where)
			}
		})
	}
	for _, s := range q.Select {
		prepareCalls(s.Expr)
	}
	for _, c := range q.Clauses {
		prepareCond(c.Where)
	}
}

func prepareCond(c *Cond) {
	if c == nil {
		return
	}
	for _, and := range c.Or {
		for _, n := range and.And {
			switch {
			case n.Group != nil:
				prepareCond(n.Group)
			case n.Compare != nil && n.Compare.In != nil:
				n.Compare.in = newValueSet(n.Compare.In)
			}
		}
	}
}

func syntaxError(err error) error {
	var pe participle.Error
	if errors.As(err, &pe) {
		pos := pe.Position()
		msg := pe.Message()
		var ut *participle.UnexpectedTokenError
		if errors.As(err, &ut) {
			msg = fmt.Sprintf("unexpected '%s'", ut.Unexpected.Value)
			if ut.Unexpected.EOF() {
				msg = "unexpected end of query"
			}
		}
		return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: Error at line %d position %d, %s", pos.Line, pos.Column, msg)}
	}
	var le *lexer.Error
	if errors.As(err, &le) {
		return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: Error at line %d position %d, %s", le.Pos.Line, le.Pos.Column, le.Msg)}
	}
	return &SyntaxError{Msg: "NRQL Syntax Error: " + err.Error()}
}

// check rejects what parses but is outside the supported subset.
func (q *Query) check() error {
	seen := map[string]bool{}
	for _, c := range q.Clauses {
		var name string
		switch {
		case c.Where != nil:
			name = "WHERE"
		case c.Facet != nil:
			name = "FACET"
		case c.Since != nil:
			name = "SINCE"
			if err := checkTime(c.Since); err != nil {
				return err
			}
		case c.Until != nil:
			name = "UNTIL"
			if err := checkTime(c.Until); err != nil {
				return err
			}
		case c.Timeseries != nil:
			name = "TIMESERIES"
			if ts := c.Timeseries; ts.Value != nil {
				if _, ok := unitDuration(deref(ts.Unit)); !ok {
					return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: unknown TIMESERIES unit '%s'", deref(ts.Unit))}
				}
			}
		case c.Limit != nil:
			name = "LIMIT"
		}
		if seen[name] {
			return &SyntaxError{Msg: "NRQL Syntax Error: " + name + " given twice"}
		}
		seen[name] = true
	}
	var err error
	for _, it := range q.Select {
		if it.Expr != nil {
			walkCalls(it.Expr, func(c *Call) {
				if err == nil {
					err = checkCall(c)
				}
			})
		}
	}
	return err
}

func checkTime(t *TimeSpec) error {
	if t.Unit != nil {
		if _, ok := unitDuration(*t.Unit); !ok {
			return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: unknown time unit '%s'", *t.Unit)}
		}
	}
	return nil
}

var arity = map[string][2]int{
	"count": {1, 1}, "sum": {1, 1}, "average": {1, 1}, "min": {1, 1}, "max": {1, 1}, "stddev": {1, 1},
	"latest": {1, 1}, "uniquecount": {1, 1}, "uniques": {1, 2}, "rate": {2, 2}, "filter": {2, 2}, "eventtype": {0, 0},
	"apdex": {1, 1}, // apdex(newrelic.timeslice.value) only: the t: argument of event apdex() is not parsed
}

func checkCall(c *Call) error {
	name := strings.ToLower(c.Name)
	a, ok := arity[name]
	if !ok {
		return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: unknown function '%s'", c.Name)}
	}
	if len(c.Args) < a[0] || len(c.Args) > a[1] {
		return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: %s takes %d to %d arguments", c.Name, a[0], a[1])}
	}
	for i, arg := range c.Args {
		switch {
		case name == "rate" && i == 1:
			if arg.Duration == nil {
				return &SyntaxError{Msg: "NRQL Syntax Error: rate needs a duration such as 1 minute"}
			}
			if _, ok := unitDuration(arg.Duration.Unit); !ok {
				return &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: unknown time unit '%s'", arg.Duration.Unit)}
			}
		case name == "filter" && i == 1:
			if arg.Where == nil {
				return &SyntaxError{Msg: "NRQL Syntax Error: filter needs WHERE as its second argument"}
			}
		case (name == "rate" || name == "filter") && i == 0:
			if arg.Expr == nil || aggregateOf(arg.Expr) == nil {
				return &SyntaxError{Msg: "NRQL Syntax Error: " + c.Name + " needs an aggregate function first"}
			}
		case name == "uniques" && i == 1:
			if arg.Expr == nil || constant(arg.Expr) == nil {
				return &SyntaxError{Msg: "NRQL Syntax Error: uniques takes a numeric limit"}
			}
		case name == "count" && arg.Star:
		case arg.Expr == nil:
			return &SyntaxError{Msg: "NRQL Syntax Error: bad argument to " + c.Name}
		}
	}
	return nil
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}
