package restv2

import (
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Bounds on what one request may carry; exceeding one is a *ParamError (a 400).
// REST v2's own limits are not documented; these are far above what any known
// client sends and keep one request's work bounded.
const (
	// MaxParams bounds the key=value pairs of query string and form body together
	// (net/url applies the same bound by default).
	MaxParams = 10000
	// MaxIDs bounds the distinct ids of an id list such as filter[ids]; 200 is
	// REST v2's page size.
	MaxIDs = 200
	// MaxNames bounds the distinct metric names in names[] (or names).
	MaxNames = 200
	// MaxValues bounds the distinct value names in values[] (or values).
	MaxValues = 100
)

// ParamError is an invalid request parameter. Its message is the v2 error title the
// gateway answers with status 400, e.g.
// Invalid parameter 'filter[ids]': "abc" is not a positive integer.
type ParamError struct {
	// Param is the parameter's (decoded) name; "" when the error is not about one.
	Param string
	// Reason says what is wrong, quoting the offending value.
	Reason string
}

// Error returns the v2 error title: Invalid parameter '<Param>': <Reason>, or
// Invalid parameters: <Reason> when Param is "".
func (e *ParamError) Error() string {
	if e.Param == "" {
		return "Invalid parameters: " + e.Reason
	}
	return "Invalid parameter '" + e.Param + "': " + e.Reason
}

// paramError builds a ParamError, shortening a caller-chosen name.
func paramError(name, reason string) *ParamError {
	return &ParamError{Param: shorten(name), Reason: reason}
}

// Params are a request's parameters: its query string followed by its form-encoded
// body. A Params is immutable; the zero value holds no parameters. Names are
// matched exactly after decoding, so filter[name] and filter%5Bname%5D are the same
// parameter. When a name repeats, single-valued accessors (Get, Bool, Int, Page,
// Time) use the first value (query before body) and never fail on the repetition:
// clients re-send the original parameters with the next page's URL.
type Params struct {
	pairs []param // in arrival order
}

type param struct{ key, value string }

// ParseParams decodes and merges a raw query string (without '?') and a raw
// application/x-www-form-urlencoded body, query first. Pairs are separated by '&'
// (';' is an ordinary character); a pair without '=' has an empty value; empty pairs
// and pairs with an empty name are skipped; '+' decodes to a space. Malformed
// percent-encoding, more than MaxParams pairs (or '&' separators), or more than MaxNames names[] /
// MaxValues values[] distinct values is a *ParamError.
func ParseParams(rawQuery, rawForm string) (Params, error) {
	if rawQuery == "" && rawForm == "" {
		return Params{}, nil // most shows and lists: nothing to allocate
	}
	n := strings.Count(rawQuery, "&") + strings.Count(rawForm, "&") + 2
	if n > MaxParams+2 {
		return Params{}, paramError("", "more than "+strconv.Itoa(MaxParams)+" parameters")
	}
	p := Params{pairs: make([]param, 0, n)}
	for _, raw := range [2]string{rawQuery, rawForm} {
		for raw != "" {
			var seg string
			seg, raw, _ = strings.Cut(raw, "&")
			if seg == "" {
				continue
			}
			k, v, _ := strings.Cut(seg, "=")
			key, err := url.QueryUnescape(k)
			if err != nil {
				return Params{}, paramError(k, "malformed percent-encoding in the parameter name")
			}
			if key == "" {
				continue
			}
			value, err := url.QueryUnescape(v)
			if err != nil {
				return Params{}, paramError(key, "malformed percent-encoding in "+quoteValue(v))
			}
			p.pairs = append(p.pairs, param{key, value})
		}
	}
	if len(p.pairs) > MaxParams {
		return Params{}, paramError("", "more than "+strconv.Itoa(MaxParams)+" parameters")
	}
	for _, l := range [...]struct {
		name string
		max  int
	}{{"names[]", MaxNames}, {"names", MaxNames}, {"values[]", MaxValues}, {"values", MaxValues}} {
		if p.count(l.name) > l.max {
			if got := len(p.Strings(l.name)); got > l.max {
				return Params{}, paramError(l.name, "at most "+strconv.Itoa(l.max)+
					" distinct values are accepted, got "+strconv.Itoa(got))
			}
		}
	}
	return p, nil
}

// count is how many times name occurs.
func (p Params) count(name string) int {
	n := 0
	for _, kv := range p.pairs {
		if kv.key == name {
			n++
		}
	}
	return n
}

// Len is the number of pairs received, repetitions included.
func (p Params) Len() int { return len(p.pairs) }

// Get returns the first value of name; ok reports whether name was sent at all
// (possibly with an empty value).
func (p Params) Get(name string) (value string, ok bool) {
	for _, kv := range p.pairs {
		if kv.key == name {
			return kv.value, true
		}
	}
	return "", false
}

// Strings returns the distinct non-empty values of an array parameter such as
// names[] or values[], in arrival order. When name was not sent, it returns those of
// the first fallback name that was, e.g. p.Strings("names[]", "names", "name").
// Values are not split on commas (metric names may contain them). It returns nil
// when there are none.
func (p Params) Strings(name string, fallbacks ...string) []string {
	if out, found := p.distinct(name, true); found {
		return out
	}
	for _, n := range fallbacks {
		if out, found := p.distinct(n, true); found {
			return out
		}
	}
	return nil
}

// distinct returns the distinct values of name in arrival order (without empty
// ones when skipEmpty) and whether name occurs at all.
func (p Params) distinct(name string, skipEmpty bool) (vals []string, found bool) {
	var seen map[string]struct{} // used once vals outgrows a linear scan
	for _, kv := range p.pairs {
		if kv.key != name {
			continue
		}
		found = true
		if skipEmpty && kv.value == "" {
			continue
		}
		if seen != nil {
			if _, dup := seen[kv.value]; dup {
				continue
			}
			seen[kv.value] = struct{}{}
		} else if slices.Contains(vals, kv.value) {
			continue
		} else if len(vals) == 16 {
			seen = make(map[string]struct{}, 64)
			for _, v := range vals {
				seen[v] = struct{}{}
			}
			seen[kv.value] = struct{}{}
		}
		vals = append(vals, kv.value)
	}
	return vals, found
}

// IDs returns the ids of an id-list parameter such as filter[ids], accepting every
// shape clients send: comma lists (filter[ids]=1,2), repeated names
// (filter[ids]=1&filter[ids]=2), the array form name[] (filter[ids][]=1), and any mix.
// Spaces around ids and empty items are ignored; the result is de-duplicated in
// arrival order, and nil when no id was sent. An id that is not a positive integer,
// or more than MaxIDs distinct ids, is a *ParamError naming the parameter.
func (p Params) IDs(name string) ([]int64, error) {
	var ids []int64
	arrayName := name + "[]"
	for _, kv := range p.pairs {
		if kv.key != name && kv.key != arrayName {
			continue
		}
		for item := range strings.SplitSeq(kv.value, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			id, err := strconv.ParseInt(item, 10, 64)
			if err != nil || id <= 0 {
				return nil, paramError(name, quoteValue(item)+" is not a positive integer")
			}
			if slices.Contains(ids, id) {
				continue
			}
			if len(ids) == MaxIDs {
				return nil, paramError(name, "at most "+strconv.Itoa(MaxIDs)+" ids are accepted")
			}
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Bool returns the first value of name as a boolean: true, 1, yes / false, 0, no
// (any case, surrounding spaces ignored). Absent or empty is false; anything else
// is a *ParamError.
func (p Params) Bool(name string) (bool, error) {
	v, _ := p.Get(name)
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "0", "no":
		return false, nil
	case "true", "1", "yes":
		return true, nil
	}
	return false, paramError(name, quoteValue(v)+" is not a boolean (true or false)")
}

// Int returns the first value of name as an integer, or def when name is absent or
// empty. A value that is not an integer is a *ParamError.
func (p Params) Int(name string, def int) (int, error) {
	v, _ := p.Get(name)
	v = strings.TrimSpace(v)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, paramError(name, quoteValue(v)+" is not an integer")
	}
	return n, nil
}

// Page returns the 1-based page parameter: 1 when absent or empty; zero, negative,
// non-numeric or absurdly large (above 2^31-1, which keeps page arithmetic far
// from overflow) values are a *ParamError.
func (p Params) Page() (int, error) {
	v, _ := p.Get("page")
	v = strings.TrimSpace(v)
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil && !isDigits(v):
		return 0, paramError("page", quoteValue(v)+" is not a page number (1, 2, ...)")
	case err != nil || n > math.MaxInt32:
		return 0, paramError("page", quoteValue(v)+" is too large")
	case n < 1:
		return 0, paramError("page", quoteValue(v)+" is not a page number; pages start at 1")
	}
	return n, nil
}

func isDigits(s string) bool {
	s = strings.TrimPrefix(s, "+")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// Time returns the first value of name parsed by ParseTime; ok is false when name
// is absent or empty. An unparseable value is a *ParamError.
func (p Params) Time(name string) (t time.Time, ok bool, err error) {
	v, _ := p.Get(name)
	if strings.TrimSpace(v) == "" {
		return time.Time{}, false, nil
	}
	t, err = ParseTime(v)
	if err != nil {
		return time.Time{}, false, paramError(name, err.Error())
	}
	return t, true, nil
}

// Values returns a new url.Values of every parameter received, each name once with
// its distinct values in arrival order (repetitions re-sent by paging clients
// dropped). Its Encode method sorts by name, so the result is deterministic; Link
// headers use it to repeat every filter. The caller owns the map.
func (p Params) Values() url.Values {
	vals := make(url.Values)
	var seen map[param]struct{} // for many pairs, instead of linear scans
	if len(p.pairs) > 32 {
		seen = make(map[param]struct{}, len(p.pairs))
	}
	for _, kv := range p.pairs {
		if seen != nil {
			if _, dup := seen[kv]; dup {
				continue
			}
			seen[kv] = struct{}{}
		} else if slices.Contains(vals[kv.key], kv.value) {
			continue
		}
		vals[kv.key] = append(vals[kv.key], kv.value)
	}
	return vals
}

// Encode returns Values().Encode() without the named parameters: a canonical query
// string (names sorted, values in arrival order, brackets and commas
// percent-encoded), e.g. p.Encode("page") before appending the next page number.
func (p Params) Encode(without ...string) string {
	vals := p.Values()
	for _, k := range without {
		delete(vals, k)
	}
	return vals.Encode()
}

// FirstID is an id filter's first value (0 when absent or empty): a value that is not a
// positive integer is a v2 parameter error naming the filter.
func (p Params) FirstID(name string) (int64, error) {
	v, _ := p.Get(name)
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, &ParamError{Param: name, Reason: strconv.Quote(v) + " is not a positive integer"}
	}
	return id, nil
}

// PolicyID is the required policy_id of the condition lists: missing or not a
// positive integer is a 400.
func (p Params) PolicyID() (int64, error) {
	v, ok := p.Get("policy_id")
	if !ok || v == "" {
		return 0, BadRequest("Missing parameter: policy_id")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, BadRequest("Invalid parameter 'policy_id': " + strconv.Quote(v) + " is not a policy id")
	}
	return id, nil
}
