package nrdb

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Limits of the engine, as NRQL has them.
const (
	DefaultFacetLimit = 10
	MaxFacetLimit     = 5000
	DefaultRowLimit   = 100
	MaxBuckets        = 366
	DefaultUniques    = 1000
	MaxUniques        = 10000
)

// Result is an executed query: NerdGraph's result rows and the time window.
type Result struct {
	Rows       []map[string]any
	Begin, End time.Time
}

type aggKind int

const (
	aggCount aggKind = iota
	aggSum
	aggAverage
	aggMin
	aggMax
	aggStddev
	aggLatest
	aggUniques
	aggUniqueCount
	aggApdex
)

var aggKinds = map[string]aggKind{
	"count": aggCount, "sum": aggSum, "average": aggAverage, "min": aggMin, "max": aggMax,
	"stddev": aggStddev, "latest": aggLatest, "uniques": aggUniques, "uniquecount": aggUniqueCount,
	"apdex": aggApdex,
}

// aggNode is one aggregate in the SELECT list, with what wraps it.
type aggNode struct {
	kind   aggKind
	star   bool
	arg    *Expr
	filter *Cond
	rate   time.Duration // 0: no rate()
	limit  int           // uniques
}

type aggState struct {
	n, sum, sumsq, min, max float64
	has                     bool
	latest                  any
	latestAt                time.Time
	seen                    map[string]bool
	uniq                    []any
	apdexS, apdexT, apdexF  float64 // apdex(newrelic.timeslice.value)
}

type plan struct {
	q          *Query
	where      *Cond
	facets     []*Attr
	since      time.Time
	until      time.Time
	bucket     time.Duration // 0: no TIMESERIES
	nBuckets   int
	limit      int
	limitSet   bool
	nodes      []*aggNode
	byCall     map[*Call]int
	aggregated bool
}

// Execute runs q for accounts over src; now anchors relative times.
func Execute(ctx context.Context, q *Query, accounts []int, src Source, now time.Time) (*Result, error) {
	p, err := newPlan(q, now)
	if err != nil {
		return nil, err
	}
	scan := Scan{Accounts: accounts, EventTypes: q.From, Begin: p.since, End: p.until, Hints: hints(p.where)}
	scan.Reads, scan.Ends, scan.Once = p.once()
	if !p.aggregated {
		return p.raw(ctx, src, scan)
	}
	type group struct {
		values  []any
		buckets [][]aggState
		rows    int // rows faceted here: the frequency that ranks facets (facetRank)
	}
	groups := map[string]*group{}
	var order []string
	var scanErr error
	// A row's facet values and group key are built in scratch space, copied only for
	// a group's first row.
	rowValues := make([]any, len(p.facets))
	var rowKey []byte
	err = src.Scan(ctx, scan, func(r Row) bool {
		if p.where != nil && !evalCond(p.where, r) {
			return true
		}
		rowKey = rowKey[:0]
		for i, f := range p.facets {
			v, ok := attrValue(f, r)
			if !ok || v == nil {
				return true // rows without the facet attribute are not faceted
			}
			rowValues[i] = v
			rowKey = append(appendFacetString(rowKey, v), 0)
		}
		g := groups[string(rowKey)]
		if g == nil {
			key := string(rowKey)
			var values []any
			if len(p.facets) > 0 {
				values = slices.Clone(rowValues)
			}
			g = &group{values: values, buckets: make([][]aggState, max(p.nBuckets, 1))}
			groups[key] = g
			order = append(order, key)
		}
		g.rows++
		bi := 0
		if p.bucket > 0 {
			bi = int(r.Timestamp().Sub(p.since) / p.bucket)
			if bi < 0 || bi >= p.nBuckets {
				return true
			}
		}
		if g.buckets[bi] == nil {
			g.buckets[bi] = make([]aggState, len(p.nodes))
		}
		for i, n := range p.nodes {
			if n.filter != nil && !evalCond(n.filter, r) {
				continue
			}
			update(&g.buckets[bi][i], n, r)
		}
		if ctx.Err() != nil {
			scanErr = ctx.Err()
			return false
		}
		return true
	})
	if err == nil {
		err = scanErr
	}
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	if len(p.facets) == 0 && len(groups) == 0 {
		groups[""] = &group{buckets: make([][]aggState, max(p.nBuckets, 1))}
		order = append(order, "")
	}

	// Facets are picked and ordered by the first SELECT item, largest first, then
	// limited (facetRank).
	totals := map[string]float64{}
	if len(p.facets) > 0 {
		byValue := p.rankedByValue()
		for _, k := range order {
			if byValue {
				totals[k] = p.sortValue(groups[k].buckets)
			} else {
				totals[k] = float64(groups[k].rows)
			}
		}
		sort.SliceStable(order, func(i, j int) bool { return totals[order[i]] > totals[order[j]] })
		limit := DefaultFacetLimit
		if p.limitSet {
			limit = p.limit
		}
		if len(order) > limit {
			order = order[:limit]
		}
	}
	res := &Result{Begin: p.since, End: p.until}
	for _, k := range order {
		g := groups[k]
		for bi := range g.buckets {
			row := map[string]any{}
			if len(p.facets) > 0 {
				p.facetFields(row, g.values)
			}
			if p.bucket > 0 {
				begin := p.since.Add(time.Duration(bi) * p.bucket)
				row["beginTimeSeconds"] = begin.Unix()
				row["endTimeSeconds"] = begin.Add(p.bucket).Unix()
			}
			window := p.until.Sub(p.since)
			if p.bucket > 0 {
				window = p.bucket
			}
			states := g.buckets[bi]
			if states == nil {
				states = make([]aggState, len(p.nodes))
			}
			for i, it := range p.q.Select {
				row[itemName(it, i)] = p.final(it.Expr, states, window)
			}
			res.Rows = append(res.Rows, row)
		}
	}
	return res, nil
}

// rankedByValue tells how facets are picked and ordered, as NRQL documents it: "When
// selecting min(), max(), percentile(), average() or count(), FACET uses those
// functions to determine how facets are picked and sorted. When selecting any other
// function, FACET uses the frequency of the attribute you are faceting on"
// (docs-website src/content/docs/nrql/nrql-syntax-clauses-functions.mdx, #sel-facet).
// The first SELECT item must be one of those calls itself (a filter() or an
// arithmetic expression around it is "any other function").
func (p *plan) rankedByValue() bool {
	if len(p.q.Select) == 0 || p.q.Select[0].Expr == nil {
		return false
	}
	e := p.q.Select[0].Expr
	if len(e.Right) > 0 || len(e.Left.Right) > 0 || e.Left.Left.Call == nil {
		return false
	}
	switch strings.ToLower(e.Left.Left.Call.Name) {
	case "min", "max", "average", "count", "percentile":
		return true
	}
	return false
}

func (p *plan) sortValue(buckets [][]aggState) float64 {
	if len(p.q.Select) == 0 {
		return 0
	}
	sum := 0.0
	window := p.until.Sub(p.since)
	if p.bucket > 0 {
		window = p.bucket
	}
	for _, b := range buckets {
		if b == nil {
			continue
		}
		if f, ok := p.final(p.q.Select[0].Expr, b, window).(float64); ok {
			sum += f
		}
	}
	return sum
}

func (p *plan) facetFields(row map[string]any, values []any) {
	if len(values) == 1 {
		row["facet"] = facetString(values[0])
	} else {
		fs := make([]any, len(values))
		for i, v := range values {
			fs[i] = facetString(v)
		}
		row["facet"] = fs
	}
	for i, f := range p.facets {
		row[f.Name()] = facetString(values[i])
	}
}

func newPlan(q *Query, now time.Time) (*plan, error) {
	p := &plan{q: q, until: now, byCall: map[*Call]int{}}
	var since *TimeSpec
	var ts *Timeseries
	for _, c := range q.Clauses {
		switch {
		case c.Where != nil:
			p.where = c.Where
		case c.Facet != nil:
			p.facets = c.Facet
		case c.Since != nil:
			since = c.Since
		case c.Until != nil:
			p.until = timeOf(c.Until, now)
		case c.Timeseries != nil:
			ts = c.Timeseries
		case c.Limit != nil:
			// "The maximum allowed value for the LIMIT clause is 5,000" (#sel-limit);
			// a larger value is taken as MAX (assumed: NRDB's answer to one is not
			// documented).
			p.limitSet = true
			p.limit = MaxFacetLimit
			if c.Limit.Value != nil {
				p.limit = min(int(*c.Limit.Value), MaxFacetLimit)
			}
		}
	}
	p.since = p.until.Add(-time.Hour)
	if since != nil {
		p.since = timeOf(since, now)
	}
	if !p.since.Before(p.until) {
		return nil, &SyntaxError{Msg: "NRQL Syntax Error: SINCE must be before UNTIL"}
	}
	if ts != nil {
		span := p.until.Sub(p.since)
		if ts.Value != nil {
			u, _ := unitDuration(deref(ts.Unit))
			p.bucket = time.Duration(*ts.Value * float64(u))
		} else {
			p.bucket = max(time.Minute, (span/60 + time.Minute - 1).Truncate(time.Minute))
		}
		if p.bucket <= 0 {
			return nil, &SyntaxError{Msg: "NRQL Syntax Error: TIMESERIES needs a positive bucket"}
		}
		p.nBuckets = int((span + p.bucket - 1) / p.bucket)
		if p.nBuckets > MaxBuckets {
			return nil, &SyntaxError{Msg: fmt.Sprintf("NRQL Syntax Error: TIMESERIES would make %d buckets, more than %d", p.nBuckets, MaxBuckets)}
		}
		// Buckets end at UNTIL; the start moves back so the first bucket is whole.
		p.since = p.until.Add(-time.Duration(p.nBuckets) * p.bucket)
	}
	for _, it := range q.Select {
		if it.Expr == nil {
			continue
		}
		walkTop(it.Expr, func(c *Call) {
			if n := newNode(c); n != nil {
				p.byCall[c] = len(p.nodes)
				p.nodes = append(p.nodes, n)
			}
		})
	}
	p.aggregated = len(p.nodes) > 0
	if p.aggregated {
		for _, it := range q.Select {
			if it.Star || !allAggregated(it.Expr, p.byCall) {
				return nil, &SyntaxError{Msg: "NRQL Syntax Error: mixing aggregate functions and plain attributes is not supported"}
			}
		}
	}
	return p, nil
}

// walkTop visits the outermost calls of e (rate/filter wrappers included, their inner
// aggregate not separately).
func walkTop(e *Expr, fn func(*Call)) {
	visit := func(f *Factor) {
		switch {
		case f.Call != nil:
			fn(f.Call)
		case f.Group != nil:
			walkTop(f.Group, fn)
		}
	}
	for _, t := range append([]*Term{e.Left}, terms(e)...) {
		visit(t.Left)
		for _, r := range t.Right {
			visit(r.Factor)
		}
	}
}

func terms(e *Expr) []*Term {
	out := make([]*Term, 0, len(e.Right))
	for _, r := range e.Right {
		out = append(out, r.Term)
	}
	return out
}

func allAggregated(e *Expr, byCall map[*Call]int) bool {
	ok := true
	check := func(f *Factor) {
		switch {
		case f.Call != nil:
			if _, agg := byCall[f.Call]; !agg {
				ok = false
			}
		case f.Attr != nil:
			ok = false
		case f.Group != nil:
			ok = ok && allAggregated(f.Group, byCall)
		}
	}
	for _, t := range append([]*Term{e.Left}, terms(e)...) {
		check(t.Left)
		for _, r := range t.Right {
			check(r.Factor)
		}
	}
	return ok
}

func newNode(c *Call) *aggNode {
	name := strings.ToLower(c.Name)
	switch name {
	case "rate":
		inner := newNode(aggregateOf(c.Args[0].Expr))
		u, _ := unitDuration(c.Args[1].Duration.Unit)
		inner.rate = time.Duration(c.Args[1].Duration.Value * float64(u))
		return inner
	case "filter":
		inner := newNode(aggregateOf(c.Args[0].Expr))
		inner.filter = c.Args[1].Where
		return inner
	}
	kind, ok := aggKinds[name]
	if !ok {
		return nil
	}
	// uniques(): "the default limit of 1,000 unique attribute values per facet is
	// applied. You may specify a different limit value, up to a maximum of 10,000"; it
	// returns the first values it discovers (#func-uniques).
	n := &aggNode{kind: kind, limit: DefaultUniques}
	if len(c.Args) > 0 {
		n.star = c.Args[0].Star
		n.arg = c.Args[0].Expr
	}
	if kind == aggUniques && len(c.Args) == 2 {
		n.limit = min(int(*constant(c.Args[1].Expr)), MaxUniques)
	}
	return n
}

func update(s *aggState, n *aggNode, r Row) {
	if n.star {
		s.n++
		return
	}
	v := evalExpr(n.arg, r)
	if v == nil {
		return
	}
	switch n.kind {
	case aggLatest:
		if at := r.Timestamp(); !s.has || !at.Before(s.latestAt) {
			s.latest, s.latestAt, s.has = v, at, true
		}
		return
	case aggUniques, aggUniqueCount:
		k := facetString(v)
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		if !s.seen[k] {
			s.seen[k] = true
			if len(s.uniq) < n.limit {
				s.uniq = append(s.uniq, v)
			}
		}
		return
	}
	switch x := v.(type) {
	case Timeslice:
		if n.kind == aggApdex {
			// Apdex timeslices hold s, t, f in count, total, totalExclusive.
			s.apdexS += x.Count
			s.apdexT += x.Total
			s.apdexF += x.TotalExclusive
			return
		}
		if n.kind == aggCount {
			s.n += x.Count
			return
		}
		if x.Count == 0 {
			return
		}
		s.n += x.Count
		s.sum += x.Total
		s.sumsq += x.SumOfSquares
		if !s.has || x.Min < s.min {
			s.min = x.Min
		}
		if !s.has || x.Max > s.max {
			s.max = x.Max
		}
		s.has = true
	case float64:
		s.n++
		s.sum += x
		s.sumsq += x * x
		if !s.has || x < s.min {
			s.min = x
		}
		if !s.has || x > s.max {
			s.max = x
		}
		s.has = true
	default:
		if n.kind == aggCount {
			s.n++
		}
	}
}

func (n *aggNode) final(s *aggState, window time.Duration) any {
	var v any
	switch n.kind {
	case aggCount:
		v = s.n
	case aggSum:
		v = s.sum
	case aggAverage:
		if s.n > 0 {
			v = s.sum / s.n
		}
	case aggMin:
		if s.has {
			v = s.min
		}
	case aggMax:
		if s.has {
			v = s.max
		}
	case aggStddev:
		if s.n > 0 {
			m := s.sum / s.n
			v = math.Sqrt(math.Max(0, s.sumsq/s.n-m*m))
		}
	case aggLatest:
		v = s.latest
	case aggUniques:
		u := s.uniq
		if u == nil {
			u = []any{}
		}
		return u
	case aggUniqueCount:
		return float64(len(s.seen))
	case aggApdex:
		// The score (satisfied + tolerating/2) / all samples; only timeslice rows count.
		if all := s.apdexS + s.apdexT + s.apdexF; all > 0 {
			v = (s.apdexS + s.apdexT/2) / all
		}
	}
	if f, ok := v.(float64); ok && n.rate > 0 {
		return f / (float64(window) / float64(n.rate))
	}
	return v
}

func (p *plan) final(e *Expr, states []aggState, window time.Duration) any {
	var factor func(f *Factor) any
	var expr func(e *Expr) any
	factor = func(f *Factor) any {
		var v any
		switch {
		case f.Number != nil:
			v = *f.Number
		case f.String != nil:
			v = *f.String
		case f.Call != nil:
			i := p.byCall[f.Call]
			v = p.nodes[i].final(&states[i], window)
		case f.Group != nil:
			v = expr(f.Group)
		}
		if f.Neg {
			if x, ok := v.(float64); ok {
				return -x
			}
		}
		return v
	}
	expr = func(e *Expr) any {
		return arith(e, factor)
	}
	return expr(e)
}

// arith evaluates +-*/ over float operands; a missing operand or a division by zero
// gives null.
func arith(e *Expr, factor func(*Factor) any) any {
	term := func(t *Term) any {
		v := factor(t.Left)
		for _, r := range t.Right {
			a, ok1 := v.(float64)
			b, ok2 := factor(r.Factor).(float64)
			if !ok1 || !ok2 {
				return nil
			}
			if r.Op == "*" {
				v = a * b
			} else {
				if b == 0 {
					return nil
				}
				v = a / b
			}
		}
		return v
	}
	v := term(e.Left)
	for _, r := range e.Right {
		a, ok1 := v.(float64)
		b, ok2 := term(r.Term).(float64)
		if !ok1 || !ok2 {
			return nil
		}
		if r.Op == "+" {
			v = a + b
		} else {
			v = a - b
		}
	}
	return v
}

func timeOf(t *TimeSpec, now time.Time) time.Time {
	if t.Unit != nil {
		u, _ := unitDuration(*t.Unit)
		return now.Add(-time.Duration(t.Value * float64(u)))
	}
	return time.UnixMilli(int64(t.Value)).UTC()
}

// itemName is a result column's name: the alias, else NerdGraph's default
// ("count", "max.timestamp", "uniques.metricTimesliceName").
func itemName(it *SelectItem, i int) string {
	if it.Alias != nil {
		return *it.Alias
	}
	if it.Expr != nil {
		if c := aggregateOf(it.Expr); c != nil {
			name := strings.ToLower(c.Name)
			if name == "uniquecount" {
				name = "uniqueCount"
			}
			if len(c.Args) == 0 || c.Args[0].Star {
				return name
			}
			if a := plainAttr(c.Args[0].Expr); a != nil {
				return name + "." + a.Name()
			}
		}
		if a := plainAttr(it.Expr); a != nil {
			return a.Name()
		}
	}
	return "expr" + strconv.Itoa(i)
}

// raw answers a non-aggregated SELECT: the newest rows first.
func (p *plan) raw(ctx context.Context, src Source, scan Scan) (*Result, error) {
	limit := DefaultRowLimit
	if p.limitSet {
		limit = p.limit
	}
	var rows []Row
	err := src.Scan(ctx, scan, func(r Row) bool {
		if p.where == nil || evalCond(p.where, r) {
			rows = append(rows, r)
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Timestamp().After(rows[j].Timestamp()) })
	if len(rows) > limit {
		rows = rows[:limit]
	}
	res := &Result{Begin: p.since, End: p.until}
	for _, r := range rows {
		out := map[string]any{"timestamp": r.Timestamp().UnixMilli()}
		for i, it := range p.q.Select {
			if it.Star {
				if m, ok := r.(MapRow); ok {
					for k, v := range m.Attrs {
						out[k] = v
					}
				}
				continue
			}
			name := itemName(it, i)
			if c := it.Expr.Left.Left.Call; c != nil && strings.EqualFold(c.Name, "eventType") && it.Alias == nil {
				name = "eventType"
			}
			out[name] = evalExpr(it.Expr, r)
		}
		res.Rows = append(res.Rows, out)
	}
	return res, nil
}
