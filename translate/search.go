package translate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SearchQuery builds an entity-search query string ("domain = 'APM' AND ...") from
// clauses joined by AND. Values are always quoted by QuoteSearch; property names are
// checked against a conservative identifier syntax. It is the only place entity-search
// text is assembled.
type SearchQuery struct {
	clauses []string
	err     error
}

// EntitySearch starts a query scoped to one account, domain and type — every search
// the gateway makes is scoped to exactly one account.
func EntitySearch(accountID int64, domain, typ string) *SearchQuery {
	q := &SearchQuery{}
	return q.Eq("domain", domain).Eq("type", typ).EqInt("accountId", accountID)
}

// Eq adds `prop = 'value'`.
func (q *SearchQuery) Eq(prop, value string) *SearchQuery {
	v, err := QuoteSearch(value)
	return q.add(prop, err, prop+" = "+v)
}

// EqInt adds `prop = n` (numbers are not quoted).
func (q *SearchQuery) EqInt(prop string, n int64) *SearchQuery {
	return q.add(prop, nil, prop+" = "+strconv.FormatInt(n, 10))
}

// Like adds `prop LIKE 'value'`.
func (q *SearchQuery) Like(prop, value string) *SearchQuery {
	v, err := QuoteSearch(value)
	return q.add(prop, err, prop+" LIKE "+v)
}

// quotable is whether QuoteSearch accepts s.
func quotable(s string) bool {
	_, err := QuoteSearch(s)
	return err == nil
}

// InInts adds `prop IN ('1', '2')` (ids are compared as strings, as domainId is one).
func (q *SearchQuery) InInts(prop string, ns []int64) *SearchQuery {
	return q.list(prop, "IN", len(ns), func(b *strings.Builder, i int) error {
		var num [20]byte
		b.WriteByte('\'')
		b.Write(strconv.AppendInt(num[:0], ns[i], 10))
		b.WriteByte('\'')
		return nil
	})
}

// NotIn adds `prop NOT IN ('a', 'b')`, each value quoted by QuoteSearch. The
// operator is not in NerdGraph's entity search tutorial; New Relic's own nerdpacks send
// it (`type NOT IN ('DASHBOARD')` in an entitySearch query: newrelic/nr1-account-maturity
// src/context/data.js @ 436243610d5189812e7bb534561761f4c0aa22cd), so a caller must
// not depend on it alone (readNameIndex checks what it returns against a count).
func (q *SearchQuery) NotIn(prop string, values []string) *SearchQuery {
	return q.list(prop, "NOT IN", len(values), func(b *strings.Builder, i int) error {
		if !utf8.ValidString(values[i]) {
			return ErrInvalidUTF8
		}
		return appendQuoted(b, values[i])
	})
}

// list adds `prop op (v0, v1, ...)` of n values, each written by item; none is an error.
func (q *SearchQuery) list(prop, op string, n int, item func(b *strings.Builder, i int) error) *SearchQuery {
	if n == 0 {
		return q.add(prop, errors.New("empty "+op+" list"), "")
	}
	var b strings.Builder
	b.WriteString(prop)
	b.WriteString(" " + op + " (")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := item(&b, i); err != nil {
			return q.add(prop, err, "")
		}
	}
	b.WriteByte(')')
	return q.add(prop, nil, b.String())
}

func (q *SearchQuery) add(prop string, err error, clause string) *SearchQuery {
	if q.err != nil {
		return q
	}
	if err == nil && !validProperty(prop) {
		err = fmt.Errorf("invalid property name %q", prop)
	}
	if err != nil {
		q.err = fmt.Errorf("entity search %s: %w", prop, err)
		return q
	}
	q.clauses = append(q.clauses, clause)
	return q
}

// Build returns the query text, or the first error a clause met.
func (q *SearchQuery) Build() (string, error) {
	if q.err != nil {
		return "", q.err
	}
	return strings.Join(q.clauses, " AND "), nil
}

func validProperty(p string) bool {
	if p == "" {
		return false
	}
	for i, r := range p {
		switch {
		case r == '_' || r == '.' && i > 0:
		case r < 128 && unicode.IsLetter(r):
		case r < 128 && unicode.IsDigit(r) && i > 0:
		default:
			return false
		}
	}
	return true
}

// ErrControlCharacter is returned for values that contain control characters, which
// no entity name or tag holds and which the query languages cannot carry safely.
var ErrControlCharacter = errors.New("value contains a control character")

// QuoteSearch renders s as a single-quoted entity-search string literal: backslash and
// single quote are backslash-escaped, control characters are refused. The escaping of
// quotes inside entity-search strings is undocumented; backslash
// escaping is the convention NerdGraph's query languages share.
func QuoteSearch(s string) (string, error) {
	return quoteBackslash(s)
}

// ErrInvalidUTF8 is returned for values that are not valid UTF-8 (they could not be
// matched exactly, and would be altered on the way).
var ErrInvalidUTF8 = errors.New("value is not valid UTF-8")

func quoteBackslash(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", ErrInvalidUTF8
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	if err := appendQuoted(&b, s); err != nil {
		return "", err
	}
	return b.String(), nil
}

// appendQuoted writes s to b as a single-quoted literal, ' and \ escaped with a
// backslash; s must be valid UTF-8. On a control character it stops with
// ErrControlCharacter, b holding a partial literal the caller must discard.
func appendQuoted(b *strings.Builder, s string) error {
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsControl(r):
			return ErrControlCharacter
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return nil
}
