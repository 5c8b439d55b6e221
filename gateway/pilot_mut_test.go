package gateway

// Tests of the error mapping and the migration-pilot helpers (pass-through, compare,
// usage report), written against surviving mutants of
// `make mutate PKG=./gateway FILES='^(passthrough|compare|report|errors)\.go$'`
// (gremlins v0.6.0). Each case says which mutant it kills.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// TestV2ErrorMappingMut pins the v2 status of every failure class (errors.go v2Error: a
// changed status or a swapped case) and the Retry-After sent with 429/503
// (errors.go retryAfterOf: `RetryAfter > 0` → `>= 0` sends Retry-After: 0).
func TestV2ErrorMappingMut(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"auth", &ng.Error{Kind: ng.KindAuth}, 401},
		{"forbidden", &ng.Error{Kind: ng.KindForbidden}, 403},
		{"not found", &ng.Error{Kind: ng.KindNotFound}, 404},
		{"rate limited", &ng.Error{Kind: ng.KindRateLimited}, 429},
		{"timeout", &ng.Error{Kind: ng.KindTimeout}, 504},
		{"invalid", &ng.Error{Kind: ng.KindInvalid}, 500},
		{"unavailable", &ng.Error{Kind: ng.KindUnavailable}, 503},
		{"server", &ng.Error{Kind: ng.KindServer}, 502},
		{"transport", &ng.Error{Kind: ng.KindTransport}, 502},
		{"wrapped", fmt.Errorf("list: %w", &ng.Error{Kind: ng.KindAuth}), 401},
		{"param", &v2.ParamError{}, 400},
		{"pass-through", errPassthrough, 502},
		{"own deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), 504},
		{"anything else", errors.New("bug"), 500},
		{"v2 error as is", &v2.Error{Status: 422, Title: "t"}, 422},
	}
	for _, tt := range tests {
		got, _ := v2Error(tt.err)
		if got.Status != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, got.Status, tt.want)
		}
		if got.Title == "" {
			t.Errorf("%s: empty title", tt.name)
		}
	}
	if got := retryAfterOf(&ng.Error{Kind: ng.KindRateLimited, RetryAfter: 7 * time.Second}); got != 7*time.Second {
		t.Errorf("retryAfterOf(7s) = %v", got)
	}
	if got := retryAfterOf(&ng.Error{Kind: ng.KindRateLimited}); got != time.Second {
		t.Errorf("retryAfterOf(none) = %v, want 1s", got)
	}
	if got := retryAfterOf(errors.New("x")); got != time.Second {
		t.Errorf("retryAfterOf(plain) = %v, want 1s", got)
	}
}

// TestCompareFailedMut: which side statuses count as that side failing rather than an
// answer to diff (compare.go failed: `status >= 500` → `> 500`, `== 429` → `!=`).
func TestCompareFailedMut(t *testing.T) {
	for status, want := range map[int]bool{200: false, 404: false, 422: false, 429: true, 499: false, 500: true, 502: true, 504: true} {
		if got := failed(status); got != want {
			t.Errorf("failed(%d) = %v, want %v", status, got, want)
		}
	}
}

// TestCompareSamplerMut: one log line per key per interval, exactly at the interval the
// next one (compare.go sampler.allow: `< every` → `<=`).
func TestCompareSamplerMut(t *testing.T) {
	s := &sampler{every: time.Minute, last: map[string]time.Time{}}
	t0 := time.Unix(1_700_000_000, 0)
	if !s.allow("a", t0) {
		t.Fatal("first line refused")
	}
	if s.allow("a", t0.Add(59*time.Second)) {
		t.Fatal("second line within the interval allowed")
	}
	if !s.allow("b", t0.Add(time.Second)) {
		t.Fatal("another key refused")
	}
	if !s.allow("a", t0.Add(time.Minute)) {
		t.Fatal("line exactly one interval later refused")
	}
}

// TestPassthroughPathsMut pins the retained alerts namespaces (no Sunset header), the
// /v2 prefix and path unescaping of the pass-through (passthrough.go isRetainedPath:
// `i < 0` → `<= 0`, `rest[0] == '.'` → `!=`; pathPrefixFor; mustUnescape).
func TestPassthroughPathsMut(t *testing.T) {
	for p, want := range map[string]bool{
		"/v2/alerts_policies.json":                          true,
		"/v2/alerts_policies":                               true,
		"/v2/alerts_conditions/12.json":                     true,
		"/accounts/1/v2/alerts_nrql_conditions.json":        true,
		"/v2/alerts_location_failure_conditions/policies/1": true,
		"/v2/alerts_policiesX.json":                         false,
		"/v2/applications.json":                             false,
		"/alerts_policies.json":                             false,
		"/v2/alerts_location_failure_conditions/1.json":     false,
	} {
		if got := isRetainedPath(p); got != want {
			t.Errorf("isRetainedPath(%q) = %v, want %v", p, got, want)
		}
	}
	if pathPrefixFor("/v2/applications.json") != "/v2" || pathPrefixFor("/accounts/1/applications.json") != "" {
		t.Error("pathPrefixFor")
	}
	if got := mustUnescape("/a%2Fb"); got != "/a/b" {
		t.Errorf("mustUnescape = %q", got)
	}
	if got := mustUnescape("/a%zz"); got != "/a%zz" {
		t.Errorf("mustUnescape(bad) = %q", got)
	}
}

// TestReportProductTokenMut pins the report's agent column (report.go productToken:
// `len(tok) > 64` → `>=`; isTokenChar bounds such as `c <= 'z'` → `<`).
func TestReportProductTokenMut(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := map[string]string{
		"":                          "unknown",
		"   ":                       "unknown",
		"curl/8.1":                  "curl",
		"newrelic-client-go/2 (go)": "newrelic-client-go",
		long + "/1":                 long,
		long + "b/1":                long,
		"az AZ":                     "az",
		"AZ09!#$%&'*+-.^_`|~":       "AZ09!#$%&'*+-.^_`|~",
		"a\"b(c)@{":                 "a_b_c___",
		"zZ9":                       "zZ9",
		"[`{":                       "_`_",
		":@/":                       "__",
	}
	for ua, want := range tests {
		if got := productToken(ua); got != want {
			t.Errorf("productToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestReportBucketsAndModeMut pins the report's bounds, its mode column and its error
// count (report.go bucket: `len(set) >= limit` → `>`; record: the default mode
// "translate", `status >= 400` → `>`).
func TestReportBucketsAndModeMut(t *testing.T) {
	b := newUsageBook(NewMetrics(), 2, 1)
	at := time.Unix(1_700_000_000, 0)
	b.record(&reqState{route: "applications.list", callerHash: "aaaaaaaa"}, "curl/8", 200, at)
	b.record(&reqState{route: "applications.list", callerHash: "bbbbbbbb", mode: ModePassthrough}, "curl/8", 400, at)
	b.record(&reqState{route: "applications.list", callerHash: "cccccccc"}, "python-requests/2", 399, at)
	b.record(&reqState{route: "applications.list"}, "curl/8", 200, at) // no caller: not counted
	b.record(&reqState{callerHash: "aaaaaaaa"}, "curl/8", 200, at)     // no route: not counted
	b.record(nil, "curl/8", 200, at)                                   // no state: not counted
	rows := b.snapshot()
	got := make([]string, 0, len(rows))
	for _, u := range rows {
		got = append(got, fmt.Sprintf("%s %s %s %s %d/%d", u.Caller, u.Agent, u.Route, u.Mode, u.Count, u.Errors))
	}
	want := []string{
		"aaaaaaaa curl applications.list translate 1/0",
		"bbbbbbbb curl applications.list passthrough 1/1",
		"other other applications.list translate 1/0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("report rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReportCSVCellMut pins the CSV neutralisation of formula cells (report.go csvCell).
func TestReportCSVCellMut(t *testing.T) {
	for in, want := range map[string]string{"": "", "=1": "'=1", "+1": "'+1", "-1": "'-1", "@x": "'@x",
		"\tx": "'\tx", "\rx": "'\rx", "a=1": "a=1", "x": "x"} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReportDaysLeftMut pins the countdown to the REST v2 sunset (report.go daysLeft:
// `/ 24` → `* 24`).
func TestReportDaysLeftMut(t *testing.T) {
	if got := daysLeft(sunset().Add(-10*24*time.Hour - time.Hour)); got != 10 {
		t.Errorf("daysLeft(10 days 1 hour before) = %d, want 10", got)
	}
	if got := daysLeft(sunset()); got != 0 {
		t.Errorf("daysLeft(at sunset) = %d, want 0", got)
	}
}
