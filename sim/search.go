package sim

import (
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/v2bridge/v2bridge/sim/model"
)

// searchPageSize is NerdGraph's entity search page size (200 entities a page:
// https://github.com/newrelic/newrelic-client-go/issues/1068).
const searchPageSize = 200

// predicate tells whether an entity matches a query.
type predicate func(e *entity) bool

type compileOptions struct {
	caseSensitiveTags bool
}

func compile(n node, opts compileOptions) predicate {
	switch n := n.(type) {
	case *binaryNode:
		l, r := compile(n.left, opts), compile(n.right, opts)
		if n.op == "AND" {
			return func(e *entity) bool { return l(e) && r(e) }
		}
		return func(e *entity) bool { return l(e) || r(e) }
	case *comparisonNode:
		return compileComparison(n, opts)
	}
	panic(fmt.Sprintf("sim: unknown query node %T", n))
}

// property returns an accessor for a property's values (and their lower-case forms)
// and whether tag matching rules apply to it.
func property(name string) (get func(e *entity) (vals, lower []string), isTag, isID bool) {
	one := func(f func(e *entity) string) func(e *entity) ([]string, []string) {
		return func(e *entity) ([]string, []string) { v := []string{f(e)}; return v, nil }
	}
	switch name {
	case "name":
		return func(e *entity) ([]string, []string) { return []string{e.name}, []string{e.nameLower} }, false, false
	case "domain":
		return one(func(e *entity) string { return e.domain }), false, false
	case "type":
		return one(func(e *entity) string { return e.typ }), false, false
	case "accountId":
		return one(func(e *entity) string { return strconv.Itoa(e.accountID) }), false, false
	case "domainId":
		return one(func(e *entity) string { return e.domainID }), false, false
	case "id":
		return one(func(e *entity) string { return e.guid }), false, true
	case "reporting":
		return one(func(e *entity) string { return strconv.FormatBool(e.reporting) }), false, false
	case "alertSeverity":
		return one(func(e *entity) string { return string(e.alertSeverity) }), false, false
	}
	key := strings.TrimPrefix(name, "tags.")
	return func(e *entity) ([]string, []string) {
		i, ok := slices.BinarySearchFunc(e.tags, key, func(t tag, k string) int { return strings.Compare(t.key, k) })
		if !ok {
			return nil, nil
		}
		return e.tags[i].values, e.tags[i].lower
	}, true, false
}

// singleProperty returns the value of a built-in property that has exactly one (every
// one but tags), without the slice property allocates: = and IN are evaluated for every
// entity of the caller's accounts on every page. accountId is compared as a number
// (accountIDs); nil for it and for tags.
func singleProperty(name string) func(e *entity) string {
	switch name {
	case "name":
		return func(e *entity) string { return e.name }
	case "domain":
		return func(e *entity) string { return e.domain }
	case "type":
		return func(e *entity) string { return e.typ }
	case "domainId":
		return func(e *entity) string { return e.domainID }
	case "id":
		return func(e *entity) string { return e.guid }
	case "reporting":
		return func(e *entity) string { return strconv.FormatBool(e.reporting) }
	case "alertSeverity":
		return func(e *entity) string { return string(e.alertSeverity) }
	}
	return nil
}

// accountIDs are the listed values that are an account id as property writes it
// (strconv.Itoa: no sign, no leading zero), the only ones that can match.
func accountIDs(want []string) []int {
	var ids []int
	for _, w := range want {
		if n, err := strconv.Atoi(w); err == nil && strconv.Itoa(n) == w {
			ids = append(ids, n)
		}
	}
	return ids
}

func compileComparison(n *comparisonNode, opts compileOptions) predicate {
	get, isTag, isID := property(n.property)
	exact := isID || (isTag && opts.caseSensitiveTags)
	switch n.op {
	case "LIKE":
		tokens := likeTokens(n.values[0].text, !exact)
		return func(e *entity) bool {
			vals, lower := get(e)
			if !exact {
				if lower == nil {
					lower = lowerAll(vals)
				}
				vals = lower
			}
			for _, v := range vals {
				if matchTokens(v, tokens) {
					return true
				}
			}
			return false
		}
	default: // "=", "IN" and their negations "!=", "NOT IN"
		want := make([]string, len(n.values))
		for i, v := range n.values {
			want[i] = v.text
			if isID {
				want[i] = strings.TrimRight(v.text, "=")
			}
		}
		// A negation matches an entity that has the property and none of whose values
		// is listed; an entity without it matches neither form (searchlang.go).
		negated := n.op == "!=" || n.op == "NOT IN"
		if n.property == "accountId" {
			ids := accountIDs(want)
			return func(e *entity) bool { return slices.Contains(ids, e.accountID) != negated }
		}
		if one := singleProperty(n.property); one != nil {
			return func(e *entity) bool {
				v := one(e)
				for _, w := range want {
					if v == w || (!exact && strings.EqualFold(v, w)) {
						return !negated
					}
				}
				return negated
			}
		}
		return func(e *entity) bool {
			vals, _ := get(e)
			for _, v := range vals {
				for _, w := range want {
					if v == w || (!exact && strings.EqualFold(v, w)) {
						return !negated
					}
				}
			}
			return negated && len(vals) > 0
		}
	}
}

func lowerAll(vals []string) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strings.ToLower(v)
	}
	return out
}

// likeTokens splits a LIKE pattern into its tokens: the characters . , ; : * - _ ( )
// and white space separate tokens (newrelic/docs-website
// src/content/docs/apis/nerdgraph/examples/nerdgraph-entities-api-tutorial.mdx).
func likeTokens(pattern string, fold bool) []string {
	if fold {
		pattern = strings.ToLower(pattern)
	}
	return strings.FieldsFunc(pattern, func(r rune) bool {
		return strings.ContainsRune(".,;:*-_()", r) || unicode.IsSpace(r)
	})
}

// matchTokens is LIKE: every token occurs in v. A pattern without tokens matches any
// value.
func matchTokens(v string, tokens []string) bool {
	for _, t := range tokens {
		if !strings.Contains(v, t) {
			return false
		}
	}
	return true
}

// builderNode turns an EntitySearchQueryBuilder into the equivalent query: domain and
// type by =, name by LIKE, reporting, alertSeverity, and one = per tag.
func builderNode(qb *model.EntitySearchQueryBuilder) (node, error) {
	var parts []node
	eq := func(prop string, v value) {
		parts = append(parts, &comparisonNode{property: prop, op: "=", values: []value{v}})
	}
	if qb.Alertable != nil {
		return nil, errors.New("queryBuilder.alertable is " + UnsupportedMessage)
	}
	if qb.Domain != nil {
		eq("domain", value{text: string(*qb.Domain)})
	}
	if qb.Type != nil {
		eq("type", value{text: string(*qb.Type)})
	}
	if qb.Name != nil {
		parts = append(parts, &comparisonNode{property: "name", op: "LIKE", values: []value{{text: *qb.Name}}})
	}
	if qb.Reporting != nil {
		eq("reporting", value{text: strconv.FormatBool(*qb.Reporting)})
	}
	if qb.AlertSeverity != nil {
		eq("alertSeverity", value{text: string(*qb.AlertSeverity)})
	}
	for _, t := range qb.Tags {
		eq("tags."+t.Key, value{text: t.Value})
	}
	if len(parts) == 0 {
		return nil, nil
	}
	n := parts[0]
	for _, p := range parts[1:] {
		n = &binaryNode{op: "AND", left: n, right: p}
	}
	return n, nil
}

// searchState is an evaluated search: every match in result order.
type searchState struct {
	matches  []*entity
	pageSize int
	// fingerprint ties cursors to the query, order and caller scope.
	fingerprint uint64
}

// nameDirection is whether sortByWithDirection asks for the reverse of the name order;
// ok is false for what the simulator does not take: anything but one NAME criterion
// without a tag (ASC or DESC), or that beside a sortBy other than NAME.
func nameDirection(sortBy []*model.EntitySearchSortCriteria, withDirection []*model.SortCriterionWithDirection) (descending, ok bool) {
	if len(withDirection) == 0 {
		return false, true
	}
	for _, s := range sortBy {
		if s == nil || *s != model.EntitySearchSortCriteriaName {
			return false, false
		}
	}
	if len(withDirection) != 1 {
		return false, false
	}
	c := withDirection[0]
	if c == nil || c.Tag != nil || c.Attribute == nil || *c.Attribute != model.EntitySearchSortCriteriaName {
		return false, false
	}
	return c.Direction != nil && *c.Direction == model.SortByDesc, true
}

// sortMatches orders matches by the given criteria, then by name (the precomputed
// order of caller.entities, which a stable sort keeps).
func sortMatches(matches []*entity, criteria []model.EntitySearchSortCriteria) {
	if len(criteria) == 0 || (len(criteria) == 1 && criteria[0] == model.EntitySearchSortCriteriaName) {
		return
	}
	slices.SortStableFunc(matches, func(a, b *entity) int {
		for _, c := range criteria {
			var d int
			switch c {
			case model.EntitySearchSortCriteriaName:
				d = byName(a, b)
			case model.EntitySearchSortCriteriaDomain:
				d = strings.Compare(a.domain, b.domain)
			case model.EntitySearchSortCriteriaType:
				d = strings.Compare(a.typ, b.typ)
			case model.EntitySearchSortCriteriaReporting:
				d = boolCompare(b.reporting, a.reporting) // reporting first
			case model.EntitySearchSortCriteriaAlertSeverity:
				d = severityRank(a.alertSeverity) - severityRank(b.alertSeverity)
			}
			if d != 0 {
				return d
			}
		}
		return 0
	})
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// severityRank orders the most severe first.
func severityRank(s model.EntityAlertSeverity) int {
	switch s {
	case model.EntityAlertSeverityCritical:
		return 0
	case model.EntityAlertSeverityWarning:
		return 1
	case model.EntityAlertSeverityNotAlerting:
		return 2
	}
	return 3
}

func fingerprint(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}

// Cursors are opaque to clients: base64url("<kind>:<offset>:<fingerprint>").

func encodeCursor(kind string, offset int, fp uint64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.Itoa(offset) + ":" + strconv.FormatUint(fp, 16)))
}

var errBadCursor = errors.New("invalid cursor")

func decodeCursor(kind, cursor string, fp uint64) (int, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, errBadCursor
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 3 || parts[0] != kind || parts[2] != strconv.FormatUint(fp, 16) {
		return 0, errBadCursor
	}
	off, err := strconv.Atoi(parts[1])
	if err != nil || off < 0 {
		return 0, errBadCursor
	}
	return off, nil
}
