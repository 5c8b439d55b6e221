package gateway

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// A guarded handler gets the gateway's admission: an unclean path is a v2 404 and two
// keys a 401, neither reaching the handler; a refused key is answered from the
// rejected-key cache and its address throttled; an accepted key has the per-key rate
// limit; requests beyond the in-flight pool are shed with 503.
func TestGuardGivesAHandlerTheGatewaysAdmission(t *testing.T) {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	var calls atomic.Int64
	block, entered := make(chan struct{}), make(chan struct{})
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		switch r.Header.Get("X-Api-Key") {
		case "good":
			_, _ = w.Write([]byte(`{}`))
		case "slow":
			close(entered)
			<-block
		default:
			w.WriteHeader(http.StatusUnauthorized)
		}
	})
	h := NewGuard(Config{Now: func() time.Time { return at }, RateLimitPerMinute: 3, AuthFailuresPerMinute: 2,
		MaxUnauthenticatedInFlight: 1}).Wrap(inner)
	addr := "192.0.2.9:1000"
	do := func(path string, keys ...string) (int, int64) {
		before := calls.Load()
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.RemoteAddr = addr
		for _, k := range keys {
			r.Header.Add("X-Api-Key", k)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, calls.Load() - before
	}
	tests := []struct {
		name   string
		path   string
		keys   []string
		status int
		calls  int64
	}{
		{"doubled slash", "/v2//applications.json", []string{"good"}, 404, 0},
		{"dot-dot", "/rest/v2/../v2/applications.json", []string{"good"}, 404, 0},
		{"two keys", "/v2/applications.json", []string{"good", "other"}, 401, 0},
		{"no key", "/v2/applications.json", nil, 401, 1},
		{"accepted 1", "/v2/applications.json", []string{"good"}, 200, 1},
		{"accepted 2", "/v2/applications.json", []string{"good"}, 200, 1},
		{"accepted 3", "/v2/applications.json", []string{"good"}, 200, 1},
		{"over the rate limit", "/v2/applications.json", []string{"good"}, 429, 0},
		{"a bad key", "/v2/applications.json", []string{"bad"}, 401, 1},
		{"the bad key again: cached", "/v2/applications.json", []string{"bad"}, 401, 0},
		{"another bad key", "/v2/applications.json", []string{"bad2"}, 401, 1},
		{"a third: the address is throttled", "/v2/applications.json", []string{"bad3"}, 429, 0},
	}
	for _, tt := range tests {
		if status, n := do(tt.path, tt.keys...); status != tt.status || n != tt.calls {
			t.Errorf("%s: %d with %d handler calls, want %d with %d", tt.name, status, n, tt.status, tt.calls)
		}
	}
	addr = "192.0.2.10:1000" // an address not throttled
	done := make(chan struct{})
	go func() {
		defer close(done)
		do("/v2/applications.json", "slow")
	}()
	<-entered // the slow request holds the one unauthenticated slot
	if status, n := do("/v2/applications.json", "slow"); status != http.StatusServiceUnavailable || n != 0 {
		t.Errorf("beyond the unauthenticated pool: %d with %d calls, want 503 with none", status, n)
	}
	close(block)
	<-done
}
