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
		if got := loggedQuery(tc.raw); got != tc.want {
			t.Errorf("loggedQuery(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
	long := loggedQuery("filter[name]=" + strings.Repeat("x-", 2000))
	if len(long) > maxLoggedQuery+len("…") || !strings.HasSuffix(long, "…") {
		t.Errorf("a long query is logged as %d bytes, want at most %d and a mark", len(long), maxLoggedQuery)
	}
}
