package nrdb

// once reports whether p's answer is the same when the rows that differ only in
// attributes the query does not read come once instead of many times: an aggregated
// query without TIMESERIES whose aggregates keep values, not counts (uniques,
// uniqueCount, min, max), with no rate(), and, with FACET, facets ranked by the first
// SELECT item's value rather than by how many rows they have (rankedByValue). reads are
// then the attributes whose values the query reads (Scan.Reads), facets included, and
// ends tells that it reads timestamp only as the whole argument of min() or max()
// (Scan.Ends).
func (p *plan) once() (reads map[string]bool, ends, ok bool) {
	if !p.aggregated || p.bucket > 0 || len(p.facets) > 0 && !p.rankedByValue() {
		return nil, false, false
	}
	// Calls min(timestamp) and max(timestamp): a series' earliest and latest rows
	// answer them.
	extremes := map[*Call]bool{}
	for _, n := range p.nodes {
		if n.star || n.rate != 0 {
			return nil, false, false
		}
		switch n.kind {
		case aggUniques, aggUniqueCount, aggMin, aggMax:
		default:
			return nil, false, false
		}
	}
	for c, i := range p.byCall {
		if n := p.nodes[i]; (n.kind == aggMin || n.kind == aggMax) && n.filter == nil && len(c.Args) == 1 {
			if a := plainAttr(c.Args[0].Expr); a != nil && a.Field == nil && a.Name() == "timestamp" {
				extremes[c] = true
			}
		}
	}
	reads = map[string]bool{}
	r := reader{reads: reads, skip: extremes}
	for _, it := range p.q.Select {
		r.expr(it.Expr)
	}
	r.cond(p.where)
	for _, f := range p.facets {
		reads[f.Name()] = true
	}
	ends = len(extremes) > 0 && !reads["timestamp"]
	if len(extremes) > 0 {
		reads["timestamp"] = true
	}
	return reads, ends, true
}

// reader collects the attributes expressions read into reads, leaving out the
// arguments of the calls in skip.
type reader struct {
	reads map[string]bool
	skip  map[*Call]bool
}

// expr adds the attributes e reads.
func (r reader) expr(e *Expr) {
	if e == nil {
		return
	}
	r.term(e.Left)
	for _, rt := range e.Right {
		r.term(rt.Term)
	}
}

func (r reader) term(t *Term) {
	r.factor(t.Left)
	for _, rf := range t.Right {
		r.factor(rf.Factor)
	}
}

func (r reader) factor(f *Factor) {
	switch {
	case f.Attr != nil:
		r.reads[f.Attr.Name()] = true
	case f.Group != nil:
		r.expr(f.Group)
	case f.Call != nil && !r.skip[f.Call]:
		for _, a := range f.Call.Args {
			r.expr(a.Expr)
			r.cond(a.Where)
		}
	}
}

// cond adds the attributes c reads; an attribute c only tests with IS [NOT] NULL is
// not read (its presence is).
func (r reader) cond(c *Cond) {
	if c == nil {
		return
	}
	for _, and := range c.Or {
		for _, n := range and.And {
			if n.Group != nil {
				r.cond(n.Group)
				continue
			}
			cmp := n.Compare
			if a := plainAttr(cmp.Left); cmp.IsNull != nil && a != nil && a.Field == nil {
				continue
			}
			r.expr(cmp.Left)
			r.expr(cmp.Right)
		}
	}
}
