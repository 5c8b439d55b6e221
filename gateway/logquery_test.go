package gateway

import (
	"strings"
	"testing"
)

// The access log's query shows every parameter's name and value, decoded for reading,
// and never a credential: a parameter named like one, or a value shaped like a New
// Relic or legacy key, is replaced by [redacted].
func TestLoggedQueryNeverAKey(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"filter%5Bname%5D=check%20out&page=2", "filter[name]=check out&page=2"},
		{"names[]=HttpDispatcher&values[]=call_count&summarize", "names[]=HttpDispatcher&values[]=call_count&summarize"},
		{"api_key=abc&X-Api-Key=NRAK-123&token=t&Authorization=Bearer+x&page=1", "api_key=[redacted]&X-Api-Key=[redacted]&token=[redacted]&Authorization=[redacted]&page=1"},
		{"filter[name]=NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ1", "filter[name]=[redacted]"},
		{"q=" + strings.Repeat("a1", 20), "q=[redacted]"},
		{"NRAK-ABCDEF=1", "[redacted]=1"},
		{"bad=%zz&ok=1", "bad=%zz&ok=1"},
	} {
		if got := LoggedQuery(tc.raw); got != tc.want {
			t.Errorf("LoggedQuery(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
	// A query of exactly the bound is logged whole, with no mark; one that reaches the
	// bound and goes on is cut and marked, never cut silently.
	exact := "q=" + strings.Repeat("x-", (maxLoggedQuery-2)/2)
	if got := LoggedQuery(exact); got != exact {
		t.Errorf("a query of exactly %d bytes is logged as %d bytes %q…, want it whole", len(exact), len(got), got[max(0, len(got)-8):])
	}
	if got := LoggedQuery(exact + "&page=2"); got != exact+"…" {
		t.Errorf("a query going on past the bound is logged as …%q, want it cut at the bound and marked", got[max(0, len(got)-8):])
	}
	long := LoggedQuery("filter[name]=" + strings.Repeat("x-", 2000))
	if len(long) > maxLoggedQuery+len("…") || !strings.HasSuffix(long, "…") {
		t.Errorf("a long query is logged as %d bytes, want at most %d and a mark", len(long), maxLoggedQuery)
	}
}

// The access log's user_agent keeps the product's version (a client's releases told
// apart), sanitised and bounded as the usage report's product.
func TestLoggedUserAgentKeepsTheVersion(t *testing.T) {
	for ua, want := range map[string]string{
		"curl/8.5.0": "curl/8.5.0",
		"newrelic-client-go/2.51.0 (https://x) extra": "newrelic-client-go/2.51.0",
		"Go-http-client/1.1":                          "Go-http-client/1.1",
		"python-requests":                             "python-requests",
		"a/b\"c":                                      "a/b_c",
		"x/" + strings.Repeat("9", 100):               "x/" + strings.Repeat("9", 62),
	} {
		if got := loggedUserAgent(ua); got != want {
			t.Errorf("loggedUserAgent(%q) = %q, want %q", ua, got, want)
		}
	}
}
