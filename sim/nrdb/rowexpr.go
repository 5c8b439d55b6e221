package nrdb

import (
	"fmt"
	"strconv"
	"strings"
)

// Row-level evaluation: expressions, WHERE conditions and comparisons on one row, the
// value sets of IN lists, LIKE, the attribute hints a WHERE gives a Source, and a
// facet value's text.

// evalExpr evaluates a row-level expression (no aggregates).
func evalExpr(e *Expr, r Row) any {
	return arith(e, func(f *Factor) any {
		var v any
		switch {
		case f.Number != nil:
			v = *f.Number
		case f.String != nil:
			v = *f.String
		case f.Attr != nil:
			v, _ = attrValue(f.Attr, r)
		case f.Call != nil && strings.EqualFold(f.Call.Name, "eventType"):
			v = r.EventType()
		case f.Group != nil:
			v = evalExpr(f.Group, r)
		}
		if f.Neg {
			if x, ok := v.(float64); ok {
				return -x
			}
		}
		return v
	})
}

func attrValue(a *Attr, r Row) (any, bool) {
	v, ok := r.Get(a.Name())
	if !ok {
		return nil, false
	}
	if a.Field != nil {
		ts, isTS := v.(Timeslice)
		if !isTS {
			return nil, false
		}
		f, ok := ts.Field(*a.Field)
		return f, ok
	}
	return v, true
}

func evalCond(c *Cond, r Row) bool {
	for _, and := range c.Or {
		ok := true
		for _, n := range and.And {
			var v bool
			if n.Group != nil {
				v = evalCond(n.Group, r)
			} else {
				v = evalCompare(n.Compare, r)
			}
			if n.Not {
				v = !v
			}
			if !v {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func evalCompare(c *Comparison, r Row) bool {
	left := evalExpr(c.Left, r)
	switch {
	case c.IsNull != nil:
		return (left == nil) != c.IsNull.Not
	case c.In != nil:
		var in bool
		if c.in != nil {
			in = c.in.has(left)
		} else {
			for _, v := range c.In {
				if equal(left, v.value()) {
					in = true
					break
				}
			}
		}
		return left != nil && in != c.NotIn
	case c.Like != nil:
		s, ok := left.(string)
		return ok && like(s, *c.Like) != c.NotLike
	}
	right := evalExpr(c.Right, r)
	if left == nil || right == nil {
		return false
	}
	switch c.Op {
	case "=":
		return equal(left, right)
	case "!=", "<>":
		return !equal(left, right)
	}
	a, ok1 := toFloat(left)
	b, ok2 := toFloat(right)
	if !ok1 || !ok2 {
		as, bs := facetString(left), facetString(right)
		switch c.Op {
		case "<":
			return as < bs
		case "<=":
			return as <= bs
		case ">":
			return as > bs
		}
		return as >= bs
	}
	switch c.Op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

// valueSet is an IN list's values, decoded once: has(x) is whether equal(x, v) holds
// for one of them (TestValueSetAgreesWithEqual).
type valueSet struct {
	values []any
	nums   map[float64]struct{}
	strs   map[string]struct{}
	bools  [2]bool // false, true
}

func newValueSet(in []*Value) *valueSet {
	s := &valueSet{values: make([]any, len(in)), nums: map[float64]struct{}{}, strs: map[string]struct{}{}}
	for i, v := range in {
		s.values[i] = v.value()
		switch x := s.values[i].(type) {
		case float64:
			s.nums[x] = struct{}{}
		case string:
			s.strs[x] = struct{}{}
		case bool:
			s.bools[boolIndex(x)] = true
		}
	}
	return s
}

func (s *valueSet) has(x any) bool {
	switch x := x.(type) {
	case nil:
		return false
	case float64:
		_, ok := s.nums[x] // NaN is no key, as NaN == NaN is false
		return ok
	case string:
		_, ok := s.strs[x]
		return ok
	case bool:
		return s.bools[boolIndex(x)]
	}
	for _, v := range s.values { // other types compare as equal does: by facetString
		if equal(x, v) {
			return true
		}
	}
	return false
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (v *Value) value() any {
	switch {
	case v.Number != nil:
		if v.Neg {
			return -*v.Number
		}
		return *v.Number
	case v.String != nil:
		return *v.String
	case v.Bool != nil:
		return *v.Bool == "true"
	}
	return nil
}

// equal compares NRQL values by type: numbers numerically, strings as strings, and a
// number never equals a string (a numeric attribute compared with '42' matches no row).
// NRQL reference, aggregator functions: 'Data type "coercion" is not supported'
// (https://docs.newrelic.com/docs/nrql/nrql-syntax-clauses-functions/#aggregator-functions,
// newrelic/docs-website src/content/docs/nrql/nrql-syntax-clauses-functions.mdx).
func equal(a, b any) bool {
	if a == nil || b == nil {
		return false
	}
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return facetString(a) == facetString(b)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// like matches SQL LIKE: % any run, _ one character; case-sensitive.
func like(s, pattern string) bool {
	sr, pr := []rune(s), []rune(pattern)
	var match func(i, j int) bool
	memo := map[[2]int]bool{}
	match = func(i, j int) bool {
		if j == len(pr) {
			return i == len(sr)
		}
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		var res bool
		switch pr[j] {
		case '%':
			res = match(i, j+1) || (i < len(sr) && match(i+1, j))
		case '_':
			res = i < len(sr) && match(i+1, j+1)
		default:
			res = i < len(sr) && sr[i] == pr[j] && match(i+1, j+1)
		}
		memo[k] = res
		return res
	}
	return match(0, 0)
}

// hints extracts attribute = literal and attribute IN (...) from the top-level AND.
func hints(c *Cond) map[string][]any {
	if c == nil || len(c.Or) != 1 {
		return nil
	}
	h := map[string][]any{}
	for _, n := range c.Or[0].And {
		if n.Not || n.Compare == nil {
			continue
		}
		cmp := n.Compare
		a := plainAttr(cmp.Left)
		if a == nil || a.Field != nil {
			continue
		}
		switch {
		case cmp.Op == "=" && cmp.Right != nil:
			if v := literal(cmp.Right); v != nil {
				h[a.Name()] = []any{v}
			}
		case cmp.In != nil && !cmp.NotIn:
			vs := make([]any, 0, len(cmp.In))
			for _, v := range cmp.In {
				vs = append(vs, v.value())
			}
			h[a.Name()] = vs
		}
	}
	return h
}

func plainAttr(e *Expr) *Attr {
	if e == nil || len(e.Right) != 0 || len(e.Left.Right) != 0 || e.Left.Left.Neg {
		return nil
	}
	return e.Left.Left.Attr
}

func literal(e *Expr) any {
	if e == nil || len(e.Right) != 0 || len(e.Left.Right) != 0 {
		return nil
	}
	f := e.Left.Left
	switch {
	case f.Number != nil:
		if f.Neg {
			return -*f.Number
		}
		return *f.Number
	case f.String != nil:
		return *f.String
	}
	return nil
}

// appendFacetString appends facetString(v) to b.
func appendFacetString(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return append(b, x...)
	case float64:
		return strconv.AppendFloat(b, x, 'f', -1, 64)
	case bool:
		return strconv.AppendBool(b, x)
	}
	return fmt.Append(b, v)
}

// facetString is a value's text as a facet (appendFacetString's, without a copy for a
// string).
func facetString(v any) string {
	if x, ok := v.(string); ok {
		return x
	}
	return string(appendFacetString(nil, v))
}
