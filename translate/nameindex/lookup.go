package nameindex

import (
	"context"
	"slices"
	"strings"
)

// Query is a filter[name] and filter[language] lookup: REST's case-insensitive
// substring of the name and case-insensitive equality of the language, within IDs
// when given.
type Query struct {
	Name, Language string
	IDs            []int64
}

// Matches reports whether an application of name and language passes q's filters.
func (q Query) Matches(name, language string) bool {
	if q.Name != "" && !containsFold(name, q.Name) {
		return false
	}
	return q.Language == "" || strings.EqualFold(language, q.Language)
}

// Result is a lookup's answer: the matching entries in the index's order, whether an
// entry bears the asked name exactly (case aside), and whether the index was read for
// this lookup.
type Result struct {
	Matched []Entry
	Exact   bool
	ReadNow bool
}

// Lookup matches q in c's account's index (Get; gen: the account's write count now).
func (x *Indexes) Lookup(ctx context.Context, c Caller, gen uint64, q Query) (Result, error) {
	idx, readNow, err := x.Get(ctx, c, gen)
	if err != nil {
		return Result{}, err
	}
	r := Result{ReadNow: readNow}
	for _, e := range idx {
		if q.Matches(e.Name, e.Language) && (len(q.IDs) == 0 || slices.Contains(q.IDs, e.ID)) {
			r.Matched = append(r.Matched, e)
		}
		r.Exact = r.Exact || (q.Name != "" && strings.EqualFold(e.Name, q.Name))
	}
	return r, nil
}

// IDs are the ids of es, in order.
func IDs(es []Entry) []int64 {
	ids := make([]int64, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

// containsFold reports whether sub is within s, case aside.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
