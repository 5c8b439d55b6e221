package verify

// The pacing, the 429 retry and the defaults of a side, with the runner's clock and sleep
// replaced so nothing waits. Written for the survivors of the whole-tree gremlins runs
// (tests/MUTATION.md): verify.go `r.gap - since` → `+` in pace (slower pacing, which
// only an upper bound on time could see with the real clock), the `== 429` and
// `attempt < 2` of call, the Retry-After bounds, and the sides' 60 s client timeout.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock that moves only when told, and a sleep that records what it was
// asked and moves the clock by it.
type fakeClock struct {
	now    time.Time
	slept  []time.Duration
	answer bool // what sleep returns (false: as if the context ended)
}

func (c *fakeClock) clock() time.Time { return c.now }
func (c *fakeClock) sleep(_ context.Context, d time.Duration) bool {
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return c.answer
}

func TestPaceMut(t *testing.T) {
	s := &Side{}
	t0 := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		last    time.Time // zero: never asked
		now     time.Time
		want    []time.Duration
		wantEnd time.Time
	}{
		{"first request", time.Time{}, t0, nil, t0},
		{"a quarter of the gap after the last", t0, t0.Add(30 * time.Millisecond), []time.Duration{90 * time.Millisecond}, t0.Add(120 * time.Millisecond)},
		{"exactly the gap after", t0, t0.Add(120 * time.Millisecond), nil, t0.Add(120 * time.Millisecond)},
		{"long after", t0, t0.Add(time.Hour), nil, t0.Add(time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClock{now: tc.now, answer: true}
			r := &runner{last: map[*Side]time.Time{}, gap: 120 * time.Millisecond, clock: c.clock, sleep: c.sleep}
			if !tc.last.IsZero() {
				r.last[s] = tc.last
			}
			r.pace(context.Background(), s)
			if fmt.Sprint(c.slept) != fmt.Sprint(tc.want) {
				t.Errorf("slept %v, want %v", c.slept, tc.want)
			}
			if !r.last[s].Equal(tc.wantEnd) {
				t.Errorf("last request at %v, want %v", r.last[s], tc.wantEnd)
			}
		})
	}
	// Each side has its own pace: a request to the other side does not wait.
	c := &fakeClock{now: t0.Add(time.Millisecond), answer: true}
	other := &Side{}
	r := &runner{last: map[*Side]time.Time{s: t0}, gap: 120 * time.Millisecond, clock: c.clock, sleep: c.sleep}
	r.pace(context.Background(), other)
	if len(c.slept) != 0 {
		t.Errorf("the other side waited %v", c.slept)
	}
}

// seq429 answers 429 (with the Retry-After it is given, "" for none) n times, then 200.
type seq429 struct {
	retryAfter []string
	calls      int
}

func (q *seq429) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q.calls++
	if q.calls <= len(q.retryAfter) {
		if v := q.retryAfter[q.calls-1]; v != "" {
			w.Header().Set("Retry-After", v)
		}
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"title":"rate limited"}}`))
		return
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(`{"applications":[]}`))
}

func TestCall429RetryMut(t *testing.T) {
	for _, tc := range []struct {
		name       string
		retryAfter []string
		sleepOK    bool
		wantStatus int
		wantCalls  int
		wantSlept  []time.Duration
	}{
		{"one 429 then the answer", []string{"3"}, true, 200, 2, []time.Duration{3 * time.Second}},
		{"no Retry-After waits a second", []string{""}, true, 200, 2, []time.Duration{time.Second}},
		{"Retry-After 0 waits a second", []string{"0"}, true, 200, 2, []time.Duration{time.Second}},
		{"Retry-After 1", []string{"1"}, true, 200, 2, []time.Duration{time.Second}},
		{"Retry-After over a minute waits a minute", []string{"120"}, true, 200, 2, []time.Duration{time.Minute}},
		{"Retry-After 60", []string{"60"}, true, 200, 2, []time.Duration{time.Minute}},
		{"two 429s then the answer", []string{"2", "5"}, true, 200, 3, []time.Duration{2 * time.Second, 5 * time.Second}},
		{"three 429s: the third is the answer", []string{"2", "2", "2"}, true, 429, 3, []time.Duration{2 * time.Second, 2 * time.Second}},
		{"the context ends while waiting", []string{"4"}, false, 429, 1, []time.Duration{4 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &seq429{retryAfter: tc.retryAfter}
			srv := httptest.NewServer(q)
			defer srv.Close()
			c := &fakeClock{now: time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC), answer: tc.sleepOK}
			s := &Side{Base: srv.URL, Client: srv.Client()}
			r := &runner{last: map[*Side]time.Time{}, gap: 0, clock: c.clock, sleep: c.sleep}
			a := r.call(context.Background(), s, "/v2/applications.json")
			if a.err != nil {
				t.Fatal(a.err)
			}
			if a.status != tc.wantStatus || q.calls != tc.wantCalls {
				t.Errorf("status %d after %d requests, want %d after %d", a.status, q.calls, tc.wantStatus, tc.wantCalls)
			}
			if fmt.Sprint(c.slept) != fmt.Sprint(tc.wantSlept) {
				t.Errorf("waited %v, want %v", c.slept, tc.wantSlept)
			}
		})
	}
	// A status other than 429 is never retried, 503 included.
	for _, st := range []int{http.StatusServiceUnavailable, http.StatusBadRequest, http.StatusInternalServerError} {
		calls := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			calls++
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(st)
		}))
		c := &fakeClock{now: time.Unix(0, 0), answer: true}
		r := &runner{last: map[*Side]time.Time{}, clock: c.clock, sleep: c.sleep}
		a := r.call(context.Background(), &Side{Base: srv.URL, Client: srv.Client()}, "/v2/x.json")
		srv.Close()
		if a.status != st || calls != 1 || len(c.slept) != 0 {
			t.Errorf("status %d: answered %d after %d requests and waits %v; want one request, no wait", st, a.status, calls, c.slept)
		}
	}
}

func TestSleepCtxMut(t *testing.T) {
	if !sleepCtx(context.Background(), time.Millisecond) {
		t.Error("a 1 ms wait that passed reported false")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan bool, 1)
	go func() { done <- sleepCtx(ctx, time.Hour) }()
	select {
	case ok := <-done:
		if ok {
			t.Error("a wait cut by its context reported true")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("an ended context did not cut an hour's wait")
	}
}

// TestSideDefaultsMut: a side without a Client gets one with the 60 s timeout (verify.go
// `60 * time.Second` → `/`: no timeout at all, a hung side hangs the run).
func TestSideDefaultsMut(t *testing.T) {
	if c := sideClient(); c.Timeout != 60*time.Second {
		t.Errorf("side client timeout %v, want 60s", c.Timeout)
	}
	if sideTimeout != time.Minute {
		t.Errorf("sideTimeout %v", sideTimeout)
	}
}

// writeSide answers the write plan: a created policy, a created, updated and deleted
// NRQL condition, the policy's deletion and a deployment.
type writeSide struct{ calls []string }

func (f *writeSide) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v2/applications.json":
		_, _ = w.Write([]byte(`{"applications":[]}`))
	case r.Method == http.MethodPost && r.URL.Path == "/v2/alerts_policies.json":
		_, _ = w.Write([]byte(`{"policy":{"id":71,"name":"p"}}`))
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v2/alerts_nrql_conditions/policies/"):
		_, _ = w.Write([]byte(`{"nrql_condition":{"id":81,"name":"c"}}`))
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/deployments.json"):
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"deployment":{"id":91,"revision":"r"}}`))
	default:
		_, _ = w.Write([]byte(`{}`))
	}
}

// TestRunWritesTotalMut: a run with writes plans 5 exchanges, 6 with an application
// (verify.go `r.total += 5`, `r.total++`), makes them all, and its progress bar ends at
// done == total.
func TestRunWritesTotalMut(t *testing.T) {
	for _, app := range []int64{0, 42} {
		rest, tr := &writeSide{}, &writeSide{}
		rs, ts := httptest.NewServer(rest), httptest.NewServer(tr)
		var progress strings.Builder
		rep, err := Run(context.Background(), Config{REST: Side{Base: rs.URL}, Translation: Side{Base: ts.URL},
			PerMinute: 1 << 20, Writes: true, WriteApp: app, Stamp: "t", Progress: &progress})
		rs.Close()
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := 7 + 5 // the seven lists of the read plan (no ids in them), then the writes
		if app != 0 {
			want++
		}
		if len(rep.Exchanges) != want {
			t.Errorf("app %d: %d exchanges, want %d", app, len(rep.Exchanges), want)
		}
		end := fmt.Sprintf("] %d/%d ", want, want)
		bars := strings.Split(progress.String(), "\r")
		if last := bars[len(bars)-1]; !strings.Contains(last, end) || !strings.HasPrefix(last, "[##############################]") {
			t.Errorf("app %d: the progress bar ends %q, want a full bar and %q", app, last, end)
		}
	}
}

// TestExchange429Mut: a side still rate-limited after the retries makes the exchange an
// error naming that side (verify.go exchange's two `== http.StatusTooManyRequests`),
// not a comparison of an error body with an answer.
func TestExchange429Mut(t *testing.T) {
	for _, limited := range []string{"REST", "translation"} {
		busy := &seq429{retryAfter: []string{"1", "1", "1", "1"}}
		ok := &seq429{}
		rs, ts := httptest.NewServer(busy), httptest.NewServer(ok)
		if limited == "translation" {
			rs, ts = ts, rs
		}
		c := &fakeClock{now: time.Unix(0, 0), answer: true}
		r := &runner{cfg: Config{REST: Side{Base: rs.URL, Client: rs.Client()}, Translation: Side{Base: ts.URL, Client: ts.Client()}},
			rep: &Report{}, last: map[*Side]time.Time{}, clock: c.clock, sleep: c.sleep}
		r.exchange(context.Background(), request{"applications.list", "/v2/applications.json"})
		rs.Close()
		ts.Close()
		want := limited + " side answered 429"
		if len(r.rep.Exchanges) != 1 || r.rep.Exchanges[0].Error != want {
			t.Errorf("%s side limited: exchanges %+v, want one with error %q", limited, r.rep.Exchanges, want)
		}
	}
}
