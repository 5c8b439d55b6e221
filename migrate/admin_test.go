package migrate

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/translate"
)

// The report and explain take the admin token as Authorization: Bearer <token> only,
// the scheme in any case; a bare token or another scheme is refused.
func TestAdminTokenIsBearerInAnyCase(t *testing.T) {
	tr := translate.New(&refusingClient{}, translate.Options{Now: func() time.Time { return explainClock }})
	h := wired(gateway.Config{}, Config{ReportToken: "s3cret"}, tr, nil).Handler()
	tests := []struct {
		header string
		want   int
	}{
		{"Bearer s3cret", http.StatusOK},
		{"bearer s3cret", http.StatusOK},
		{"BEARER  s3cret ", http.StatusOK},
		{"s3cret", http.StatusUnauthorized},
		{"Basic s3cret", http.StatusUnauthorized},
		{"Bearer wrong", http.StatusUnauthorized},
		{"", http.StatusUnauthorized},
	}
	for _, path := range []string{"/v2bridge/report.json", "/v2bridge/explain?account=1&request=GET%20/v2/applications.json"} {
		for i, tt := range tests {
			r := httptest.NewRequest(http.MethodGet, path, nil)
			r.RemoteAddr = "192.0.2." + strconv.Itoa(i+1) + ":1234" // one address each: no slowing here
			r.Header.Set("Authorization", tt.header)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Errorf("%s with %q: %d, want %d", path, tt.header, w.Code, tt.want)
			}
			if w.Code == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
				t.Errorf("%s with %q: 401 without a WWW-Authenticate challenge", path, tt.header)
			}
		}
	}
}

// Failed attempts are slowed per client address: past the limit an address is answered
// 429 with Retry-After until its minute ends, even with the right token; other
// addresses are not affected; the next minute starts afresh; addresses beyond the
// tracked bound are refused rather than remembered.
func TestAdminTokenFailuresSlowedPerAddress(t *testing.T) {
	now := time.Date(2026, 11, 28, 10, 0, 5, 0, time.UTC)
	g := newAdminGate("s3cret", func() time.Time { return now }, nil)
	try := func(addr, header string) (int, string) {
		r := httptest.NewRequest(http.MethodGet, "/v2bridge/report.json", nil)
		r.RemoteAddr = addr + ":4000"
		r.Header.Set("Authorization", header)
		w := httptest.NewRecorder()
		status := http.StatusOK
		if !g.admit(w, r, "test", func(s int, _ string) { status = s }) {
			return status, w.Header().Get("Retry-After")
		}
		return status, ""
	}
	for i := range adminFailuresPerMinute {
		if s, _ := try("198.51.100.7", "Bearer guess"+strconv.Itoa(i)); s != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d, want 401", i, s)
		}
	}
	if s, after := try("198.51.100.7", "Bearer s3cret"); s != http.StatusTooManyRequests || after != "56" {
		t.Fatalf("after %d failures: %d Retry-After %q, want 429 after 56 s", adminFailuresPerMinute, s, after)
	}
	if s, _ := try("198.51.100.8", "Bearer s3cret"); s != http.StatusOK {
		t.Fatalf("another address: %d, want 200", s)
	}
	now = now.Add(time.Minute)
	if s, _ := try("198.51.100.7", "Bearer s3cret"); s != http.StatusOK {
		t.Fatalf("the next minute: %d, want 200", s)
	}
	for i := range adminMaxAddresses {
		try("198.18."+strconv.Itoa(i/256)+"."+strconv.Itoa(i%256), "Bearer wrong")
	}
	if s, _ := try("203.0.113.9", "Bearer s3cret"); s != http.StatusTooManyRequests {
		t.Fatalf("an address beyond the tracked bound: %d, want 429", s)
	}
	if n := len(g.failures); n > adminMaxAddresses {
		t.Fatalf("%d addresses tracked, bound %d", n, adminMaxAddresses)
	}
}

// Only guesses count against an address: requests without a bearer token (none, a bare
// token, another scheme) are 401s that never make the right token answer 429 from the
// same address; wrong bearer tokens do, until the minute ends.
func TestAdminTokenCountsOnlyGuesses(t *testing.T) {
	now := time.Date(2026, 11, 28, 10, 0, 5, 0, time.UTC)
	g := newAdminGate("s3cret", func() time.Time { return now }, nil)
	try := func(header string) int {
		r := httptest.NewRequest(http.MethodGet, "/v2bridge/report.json", nil)
		r.RemoteAddr = "198.51.100.7:4000"
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		status := http.StatusOK
		g.admit(httptest.NewRecorder(), r, "test", func(s int, _ string) { status = s })
		return status
	}
	for i := range 5 * adminFailuresPerMinute {
		for _, h := range []string{"", "s3cret", "Basic czNjcmV0", "Bearer ", "Bearer"} {
			if s := try(h); s != http.StatusUnauthorized {
				t.Fatalf("request %d with %q: %d, want 401", i, h, s)
			}
		}
	}
	if s := try("Bearer s3cret"); s != http.StatusOK {
		t.Fatalf("the right token after requests without one: %d, want 200", s)
	}
	for i := range adminFailuresPerMinute {
		try("Bearer guess" + strconv.Itoa(i))
	}
	if s := try("Bearer s3cret"); s != http.StatusTooManyRequests {
		t.Fatalf("the right token after %d wrong ones: %d, want 429", adminFailuresPerMinute, s)
	}
	if s := try(""); s != http.StatusUnauthorized {
		t.Fatalf("no token from a throttled address: %d, want 401", s)
	}
	now = now.Add(time.Minute)
	if s := try("Bearer s3cret"); s != http.StatusOK {
		t.Fatalf("the right token after the throttle window: %d, want 200", s)
	}
}

// Each failed admin token is logged with the address and the endpoint, never the token
// sent; a request without a bearer token (not a guess) is not; an address's throttle is
// logged once when it starts, and the 429s after it are not logged one by one.
func TestAdminTokenRefusalsAndThrottleLogged(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	now := time.Date(2026, 11, 28, 10, 0, 5, 0, time.UTC)
	g := newAdminGate("s3cret", func() time.Time { return now }, zap.New(core))
	try := func(header string) {
		r := httptest.NewRequest(http.MethodGet, "/v2bridge/report.json", nil)
		r.RemoteAddr = "198.51.100.7:4000"
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		g.admit(httptest.NewRecorder(), r, "v2bridge report", func(int, string) {})
	}
	try("")
	try("s3cret-guess")
	for i := range adminFailuresPerMinute + 5 {
		try("Bearer guess-" + strconv.Itoa(i))
	}
	refused := logs.FilterMessage("admin token refused").All()
	if len(refused) != adminFailuresPerMinute {
		t.Fatalf("%d refusals logged, want %d (one per counted guess)", len(refused), adminFailuresPerMinute)
	}
	if f := refused[0].ContextMap(); f["reason"] != "wrong token" || f["client"] != "198.51.100.7" || f["endpoint"] != "v2bridge report" ||
		f["failures_this_minute"] != int64(1) {
		t.Errorf("refusal: %v", f)
	}
	if n := logs.FilterMessage("admin token: address throttled until the minute ends").Len(); n != 1 {
		t.Errorf("the throttle was logged %d times, want once", n)
	}
	for _, e := range logs.All() {
		for k, v := range e.ContextMap() {
			if s, ok := v.(string); ok && (strings.Contains(s, "guess") || strings.Contains(s, "s3cret")) {
				t.Errorf("%q logs what was sent in %s: %q", e.Message, k, s)
			}
		}
	}
}
