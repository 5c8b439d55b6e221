package restv2

import (
	"errors"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func mustParams(t *testing.T, query, form string) Params {
	t.Helper()
	p, err := ParseParams(query, form)
	if err != nil {
		t.Fatalf("ParseParams(%q, %q): %v", query, form, err)
	}
	return p
}

func TestParseParamsGet(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		form      string
		key       string
		wantValue string
		wantOK    bool
	}{
		{"raw brackets", "filter[name]=web", "", "filter[name]", "web", true},
		{"encoded brackets", "filter%5Bname%5D=web", "", "filter[name]", "web", true},
		{"lower-case encoding", "filter%5bname%5d=web", "", "filter[name]", "web", true},
		{"plus is space", "filter[name]=My+Web+Page", "", "filter[name]", "My Web Page", true},
		{"encoded plus", "from=2016-01-01T00:00:00%2B08:00", "", "from", "2016-01-01T00:00:00+08:00", true},
		{"form body", "", "names[]=Apdex&from=2016-01-01", "from", "2016-01-01", true},
		{"query wins over body", "page=2", "page=3", "page", "2", true},
		{"first duplicate wins", "page=2&start_date=X&start_date=Y", "", "start_date", "X", true},
		{"no equals sign", "summarize&raw=true", "", "summarize", "", true},
		{"empty value", "filter[name]=", "", "filter[name]", "", true},
		{"absent", "page=2", "", "filter[name]", "", false},
		{"empty pairs skipped", "&&page=2&", "", "page", "2", true},
		{"semicolon is literal", "filter[name]=a;b", "", "filter[name]", "a;b", true},
		{"equals in value", "q=a=b", "", "q", "a=b", true},
		{"unicode", "filter[name]=caf%C3%A9", "", "filter[name]", "café", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParams(t, tt.query, tt.form)
			got, ok := p.Get(tt.key)
			if got != tt.wantValue || ok != tt.wantOK {
				t.Errorf("Get(%q) = %q, %v; want %q, %v", tt.key, got, ok, tt.wantValue, tt.wantOK)
			}
		})
	}
}

func TestParseParamsErrors(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		form      string
		wantParam string
		wantMsg   string
	}{
		{"bad value escape", "from=2016%ZZ", "", "from", `Invalid parameter 'from': malformed percent-encoding in "2016%ZZ"`},
		{"truncated escape", "", "names[]=abc%2", "names[]", `Invalid parameter 'names[]': malformed percent-encoding in "abc%2"`},
		{"bad name escape", "filter%ZZname=x", "", "filter%ZZname", `Invalid parameter 'filter%ZZname': malformed percent-encoding in the parameter name`},
		{"too many names", manyValues("names[]", MaxNames+1), "", "names[]",
			"Invalid parameter 'names[]': at most 200 distinct values are accepted, got 201"},
		{"too many values", "", manyValues("values[]", MaxValues+1), "values[]",
			"Invalid parameter 'values[]': at most 100 distinct values are accepted, got 101"},
		{"too many pairs", manyValues("x", MaxParams+1), "", "",
			"Invalid parameters: more than 10000 parameters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseParams(tt.query, tt.form)
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v, want a *ParamError", err)
			}
			if pe.Param != tt.wantParam || err.Error() != tt.wantMsg {
				t.Errorf("error = %q (param %q), want %q (param %q)", err, pe.Param, tt.wantMsg, tt.wantParam)
			}
		})
	}
}

// manyValues is name=v0&name=v1&... with n distinct values.
func manyValues(name string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(name + "=v" + strconv.Itoa(i))
	}
	return b.String()
}

func TestParseParamsLimitsCountDistinctValues(t *testing.T) {
	// A client re-sending the same 200 names on every page stays within bounds.
	names := manyValues("names[]", MaxNames)
	p := mustParams(t, names+"&"+names, names)
	if got := len(p.Strings("names[]")); got != MaxNames {
		t.Errorf("len(Strings) = %d, want %d", got, MaxNames)
	}
	if got := p.Len(); got != 3*MaxNames {
		t.Errorf("Len = %d, want %d", got, 3*MaxNames)
	}
}

func TestParamsStrings(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		form      string
		give      string
		fallbacks []string
		want      []string
	}{
		{"repeated", "names[]=HttpDispatcher&names[]=Apdex", "", "names[]", nil, []string{"HttpDispatcher", "Apdex"}},
		{"encoded", "names%5B%5D=CPU%2FUser+Time&names%5B%5D=Memory%2FPhysical", "", "names[]", nil,
			[]string{"CPU/User Time", "Memory/Physical"}},
		{"query then body", "names[]=A", "names[]=B", "names[]", nil, []string{"A", "B"}},
		{"duplicates dropped", "names[]=A&names[]=B&names[]=A", "names[]=B", "names[]", nil, []string{"A", "B"}},
		{"empty dropped", "values[]=&values[]=score", "", "values[]", nil, []string{"score"}},
		{"commas kept", "names[]=Custom/a,b", "", "names[]", nil, []string{"Custom/a,b"}},
		{"absent", "page=1", "", "names[]", nil, nil},
		{"fallback names", "names=A&names=B", "", "names[]", []string{"names", "name"}, []string{"A", "B"}},
		{"fallback name", "name=Mobile/Crash/All", "", "names[]", []string{"names", "name"}, []string{"Mobile/Crash/All"}},
		{"primary wins", "name=X&names[]=A", "", "names[]", []string{"name"}, []string{"A"}},
		{"no fallback unless asked", "name=X", "", "names[]", nil, nil},
		{"present but empty stops fallback", "names[]=&name=X", "", "names[]", []string{"name"}, nil},
		{"many distinct", manyValues("names[]", 40), "", "names[]", nil, func() []string {
			var out []string
			for i := range 40 {
				out = append(out, "v"+strconv.Itoa(i))
			}
			return out
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParams(t, tt.query, tt.form)
			if got := p.Strings(tt.give, tt.fallbacks...); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Strings(%q, %q) = %q, want %q", tt.give, tt.fallbacks, got, tt.want)
			}
		})
	}
}

func TestParamsIDs(t *testing.T) {
	tests := []struct {
		name  string
		query string
		form  string
		want  []int64
	}{
		{"absent", "page=2", "", nil},
		{"empty", "filter[ids]=", "", nil},
		{"single", "filter[ids]=42", "", []int64{42}},
		{"comma list", "filter[ids]=1,2,3", "", []int64{1, 2, 3}},
		{"encoded comma list", "filter%5Bids%5D=1%2C2", "", []int64{1, 2}},
		{"repeated", "filter[ids]=1&filter[ids]=2", "", []int64{1, 2}},
		{"array form", "filter[ids][]=5&filter%5Bids%5D%5B%5D=6", "", []int64{5, 6}},
		{"mixed", "filter[ids]=1,2&filter[ids][]=3", "filter[ids]=4", []int64{1, 2, 3, 4}},
		{"whitespace", "filter[ids]=+1+,%092+,+3", "", []int64{1, 2, 3}},
		{"empty items", "filter[ids]=1,,2,", "", []int64{1, 2}},
		{"de-duplicated in order", "filter[ids]=3,1,3&filter[ids]=1,2", "", []int64{3, 1, 2}},
		{"paging client re-sends", "filter[ids]=1,2&page=2&filter[ids]=1,2", "", []int64{1, 2}},
		{"max int64", "filter[ids]=9223372036854775807", "", []int64{9223372036854775807}},
		{"exactly the bound", "filter[ids]=" + idList(1, MaxIDs), "", seq(1, MaxIDs)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParams(t, tt.query, tt.form)
			got, err := p.IDs("filter[ids]")
			if err != nil {
				t.Fatalf("IDs: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("IDs = %v, want %v", got, tt.want)
			}
		})
	}
}

func idList(from, to int) string {
	var parts []string
	for i := from; i <= to; i++ {
		parts = append(parts, strconv.Itoa(i))
	}
	return strings.Join(parts, ",")
}

func seq(from, to int) []int64 {
	var out []int64
	for i := from; i <= to; i++ {
		out = append(out, int64(i))
	}
	return out
}

func TestParamsIDsErrors(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		wantMsg string
	}{
		{"letters", "filter[ids]=1,abc", `Invalid parameter 'filter[ids]': "abc" is not a positive integer`},
		{"array form names the parameter", "filter[ids][]=x", `Invalid parameter 'filter[ids]': "x" is not a positive integer`},
		{"zero", "filter[ids]=0", `Invalid parameter 'filter[ids]': "0" is not a positive integer`},
		{"negative", "filter[ids]=-4", `Invalid parameter 'filter[ids]': "-4" is not a positive integer`},
		{"float", "filter[ids]=1.5", `Invalid parameter 'filter[ids]': "1.5" is not a positive integer`},
		{"overflow", "filter[ids]=99999999999999999999", `Invalid parameter 'filter[ids]': "99999999999999999999" is not a positive integer`},
		{"inner space", "filter[ids]=1+2", `Invalid parameter 'filter[ids]': "1 2" is not a positive integer`},
		{"too many", "filter[ids]=" + idList(1, MaxIDs+1), `Invalid parameter 'filter[ids]': at most 200 ids are accepted`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParams(t, tt.query, "")
			ids, err := p.IDs("filter[ids]")
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Param != "filter[ids]" {
				t.Fatalf("IDs = %v, %v; want a *ParamError for filter[ids]", ids, err)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("error = %q, want %q", err, tt.wantMsg)
			}
		})
	}
}

func TestParamsBool(t *testing.T) {
	tests := []struct {
		query   string
		want    bool
		wantErr bool
	}{
		{"", false, false},
		{"exclude_links=", false, false},
		{"exclude_links", false, false},
		{"exclude_links=false", false, false},
		{"exclude_links=0", false, false},
		{"exclude_links=no", false, false},
		{"exclude_links=true", true, false},
		{"exclude_links=TRUE", true, false},
		{"exclude_links=+true+", true, false},
		{"exclude_links=1", true, false},
		{"exclude_links=yes", true, false},
		{"exclude_links=true&exclude_links=false", true, false},
		{"exclude_links=maybe", false, true},
		{"exclude_links=2", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := mustParams(t, tt.query, "").Bool("exclude_links")
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("Bool = %v, %v; want %v, error %v", got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "Invalid parameter 'exclude_links': ") {
				t.Errorf("error %q does not name the parameter", err)
			}
		})
	}
}

func TestParamsPage(t *testing.T) {
	tests := []struct {
		query   string
		want    int
		wantMsg string
	}{
		{"", 1, ""},
		{"page=", 1, ""},
		{"page=1", 1, ""},
		{"page=7", 7, ""},
		{"page=+7+", 7, ""},
		{"page=3&page=4", 3, ""},
		{"page=2147483647", 2147483647, ""},
		{"page=0", 0, `Invalid parameter 'page': "0" is not a page number; pages start at 1`},
		{"page=-1", 0, `Invalid parameter 'page': "-1" is not a page number; pages start at 1`},
		{"page=two", 0, `Invalid parameter 'page': "two" is not a page number (1, 2, ...)`},
		{"page=1.5", 0, `Invalid parameter 'page': "1.5" is not a page number (1, 2, ...)`},
		{"page=2147483648", 0, `Invalid parameter 'page': "2147483648" is too large`},
		{"page=99999999999999999999999", 0, `Invalid parameter 'page': "99999999999999999999999" is too large`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := mustParams(t, tt.query, "").Page()
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if got != tt.want || msg != tt.wantMsg {
				t.Errorf("Page = %d, %q; want %d, %q", got, msg, tt.want, tt.wantMsg)
			}
		})
	}
}

func TestParamsInt(t *testing.T) {
	tests := []struct {
		query   string
		want    int
		wantErr bool
	}{
		{"", 60, false},
		{"period=", 60, false},
		{"period=300", 300, false},
		{"period=-5", -5, false},
		{"period=abc", 0, true},
		{"period=1e3", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := mustParams(t, tt.query, "").Int("period", 60)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("Int = %d, %v; want %d, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestParamsTime(t *testing.T) {
	p := mustParams(t, "from=2016-01-01+00:00:00+00:00&to=", "until=soon")
	from, ok, err := p.Time("from")
	if err != nil || !ok || !from.Equal(time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Time(from) = %v, %v, %v", from, ok, err)
	}
	if _, ok, err := p.Time("to"); ok || err != nil {
		t.Errorf("Time(to) = %v, %v; want absent", ok, err)
	}
	_, _, err = p.Time("until")
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Param != "until" || !strings.HasPrefix(err.Error(), `Invalid parameter 'until': "soon" is not a time; use ISO 8601`) {
		t.Errorf("Time(until) error = %v", err)
	}
}

func TestParamsValuesAndEncode(t *testing.T) {
	p := mustParams(t,
		"filter%5Bname%5D=My+App&page=2&filter[ids]=1,2&filter[ids]=3&filter[name]=My+App",
		"names[]=b&names[]=a&names[]=b&exclude_links=true")
	wantValues := url.Values{
		"filter[name]":  {"My App"},
		"page":          {"2"},
		"filter[ids]":   {"1,2", "3"},
		"names[]":       {"b", "a"},
		"exclude_links": {"true"},
	}
	if got := p.Values(); !reflect.DeepEqual(got, wantValues) {
		t.Errorf("Values = %v, want %v", got, wantValues)
	}
	const want = "exclude_links=true&filter%5Bids%5D=1%2C2&filter%5Bids%5D=3&filter%5Bname%5D=My+App&names%5B%5D=b&names%5B%5D=a"
	if got := p.Encode("page"); got != want {
		t.Errorf("Encode(page) =\n%s\nwant\n%s", got, want)
	}
	// The caller owns Values' map: changing it does not change p.
	v := p.Values()
	v.Set("page", "3")
	v["names[]"][0] = "z"
	if got, _ := p.Get("page"); got != "2" {
		t.Errorf("Params changed through Values: page = %q", got)
	}
	if got := p.Strings("names[]"); got[0] != "b" {
		t.Errorf("Params changed through Values: names[] = %q", got)
	}
	// Many pairs take the map-based de-duplication path.
	many := mustParams(t, manyValues("x", 50)+"&"+manyValues("x", 50), "")
	if got := len(many.Values()["x"]); got != 50 {
		t.Errorf("len(Values[x]) = %d, want 50", got)
	}
}

func TestZeroParams(t *testing.T) {
	var p Params
	if _, ok := p.Get("page"); ok {
		t.Error("zero Params has page")
	}
	if n, err := p.Page(); n != 1 || err != nil {
		t.Errorf("Page = %d, %v", n, err)
	}
	if ids, err := p.IDs("filter[ids]"); ids != nil || err != nil {
		t.Errorf("IDs = %v, %v", ids, err)
	}
	if got := p.Encode(); got != "" {
		t.Errorf("Encode = %q", got)
	}
}

func TestParamErrorMessage(t *testing.T) {
	tests := []struct {
		give *ParamError
		want string
	}{
		{&ParamError{Param: "filter[ids]", Reason: `"abc" is not an integer`}, `Invalid parameter 'filter[ids]': "abc" is not an integer`},
		{&ParamError{Reason: "more than 10000 parameters"}, "Invalid parameters: more than 10000 parameters"},
		{paramError(strings.Repeat("k", 100), "r"), "Invalid parameter '" + strings.Repeat("k", 64) + "…': r"},
	}
	for _, tt := range tests {
		if got := tt.give.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func FuzzParseParams(f *testing.F) {
	f.Add("filter%5Bids%5D=1%2C2&page=2", "names[]=a+b&from=2016-01-01+00:00:00+00:00")
	f.Add("a=%zz", "")
	f.Fuzz(func(t *testing.T, query, form string) {
		p, err := ParseParams(query, form)
		if err != nil {
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParamError", err)
			}
			return
		}
		_, _ = p.IDs("filter[ids]")
		_, _ = p.Page()
		_, _ = p.Bool("summarize")
		// The canonical encoding parses back to the same values.
		back := mustParams(t, p.Encode(), "")
		if !reflect.DeepEqual(back.Values(), p.Values()) {
			t.Errorf("Encode does not round-trip: %v vs %v", back.Values(), p.Values())
		}
	})
}

func TestParseParamsLimitEdges(t *testing.T) {
	pairs := make([]string, MaxParams)
	for i := range pairs {
		pairs[i] = "k=v"
	}
	exact := strings.Join(pairs, "&")
	// Exactly MaxParams pairs are accepted.
	if _, err := ParseParams(exact, ""); err != nil {
		t.Errorf("ParseParams(%d pairs): %v, want accepted", MaxParams, err)
	}
	// MaxParams pairs and a trailing '&' (MaxParams separators, no extra pair) are still
	// accepted.
	if _, err := ParseParams(exact+"&", ""); err != nil {
		t.Errorf("ParseParams(%d pairs + trailing &): %v, want accepted", MaxParams, err)
	}
	// One pair more is refused.
	if _, err := ParseParams(exact, "k=v"); err == nil {
		t.Errorf("ParseParams(%d pairs): accepted, want a ParamError", MaxParams+1)
	}
}

// TestIDParameters: FirstID is 0 when the filter is absent or blank and a parameter
// error for anything but a positive integer; PolicyID is required, a 400 otherwise.
func TestIDParameters(t *testing.T) {
	tests := []struct {
		query        string
		wantFirst    int64
		firstErr     bool
		wantPolicy   int64
		policyStatus int // 0: accepted
	}{
		{"", 0, false, 0, 400},
		{"filter%5Bid%5D=%207%20&policy_id=12", 7, false, 12, 0},
		{"filter%5Bid%5D=0&policy_id=0", 0, true, 0, 400},
		{"filter%5Bid%5D=x&policy_id=-3", 0, true, 0, 400},
		{"filter%5Bid%5D=&policy_id=", 0, false, 0, 400},
	}
	for _, tt := range tests {
		p, err := ParseParams(tt.query, "")
		if err != nil {
			t.Fatal(err)
		}
		id, err := p.FirstID("filter[id]")
		var pe *ParamError
		if id != tt.wantFirst || (err != nil) != tt.firstErr || (err != nil && !errors.As(err, &pe)) {
			t.Errorf("%q: FirstID = %d, %v; want %d, error %v", tt.query, id, err, tt.wantFirst, tt.firstErr)
		}
		pid, err := p.PolicyID()
		var ve *Error
		if pid != tt.wantPolicy || (tt.policyStatus == 0) != (err == nil) || (err != nil && (!errors.As(err, &ve) || ve.Status != tt.policyStatus)) {
			t.Errorf("%q: PolicyID = %d, %v; want %d, status %d", tt.query, pid, err, tt.wantPolicy, tt.policyStatus)
		}
	}
}
