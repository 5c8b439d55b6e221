package nrdb

// once reports whether p's answer is the same when the rows that differ only in
// attributes the query does not read come once instead of many times: an aggregated
// query without FACET (which ranks facets by how many rows they have) or TIMESERIES
// whose aggregates keep values, not counts (uniques, uniqueCount, min, max), with no
// rate(). reads are then the attributes whose values the query reads (Scan.Reads).
func (p *plan) once() (reads map[string]bool, ok bool) {
	if !p.aggregated || len(p.facets) > 0 || p.bucket > 0 {
		return nil, false
	}
	for _, n := range p.nodes {
		if n.star || n.rate != 0 {
			return nil, false
		}
		switch n.kind {
		case aggUniques, aggUniqueCount, aggMin, aggMax:
		default:
			return nil, false
		}
	}
	reads = map[string]bool{}
	for _, it := range p.q.Select {
		readsExpr(it.Expr, reads)
	}
	readsCond(p.where, reads)
	return reads, true
}

// readsExpr adds the attributes e reads to reads.
func readsExpr(e *Expr, reads map[string]bool) {
	if e == nil {
		return
	}
	readsTerm(e.Left, reads)
	for _, r := range e.Right {
		readsTerm(r.Term, reads)
	}
}

func readsTerm(t *Term, reads map[string]bool) {
	readsFactor(t.Left, reads)
	for _, r := range t.Right {
		readsFactor(r.Factor, reads)
	}
}

func readsFactor(f *Factor, reads map[string]bool) {
	switch {
	case f.Attr != nil:
		reads[f.Attr.Name()] = true
	case f.Group != nil:
		readsExpr(f.Group, reads)
	case f.Call != nil:
		for _, a := range f.Call.Args {
			readsExpr(a.Expr, reads)
			readsCond(a.Where, reads)
		}
	}
}

// readsCond adds the attributes c reads to reads; an attribute c only tests with
// IS [NOT] NULL is not read (its presence is).
func readsCond(c *Cond, reads map[string]bool) {
	if c == nil {
		return
	}
	for _, and := range c.Or {
		for _, n := range and.And {
			if n.Group != nil {
				readsCond(n.Group, reads)
				continue
			}
			cmp := n.Compare
			if a := plainAttr(cmp.Left); cmp.IsNull != nil && a != nil && a.Field == nil {
				continue
			}
			readsExpr(cmp.Left, reads)
			readsExpr(cmp.Right, reads)
		}
	}
}
