package translate

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// sweepSide is a translator answering MetricSweep for every guid asked (all in
// account 1, a row each), with its solo requests and shared queries counted.
type sweepSide struct {
	tr     *Translator
	f      *opFake
	clock  time.Time
	solo   []int64
	shared [][]string // the guids of each shared query
	// block, when set, holds solo requests until it closes, telling entered first.
	block, entered chan struct{}
}

func newSweepSide() *sweepSide {
	s := &sweepSide{clock: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	s.f = &opFake{answer: func(op string, vars map[string]any) (any, error) {
		var entities, rows []any
		var guids []string
		for _, g := range vars["guids"].([]any) {
			guid := g.(string)
			guids = append(guids, guid)
			entities = append(entities, map[string]any{"__typename": "ApmApplicationEntity", "guid": guid, "accountId": 1})
			for id := int64(1); id < 100; id++ {
				if AppGUID(1, DomainAPM, id) == guid {
					rows = append(rows, sweepRow(strconv.FormatInt(id, 10), "HttpDispatcher", 0))
				}
			}
		}
		s.shared = append(s.shared, guids)
		return map[string]any{"actor": map[string]any{"entities": entities, "account": map[string]any{"q": map[string]any{"results": rows}}}}, nil
	}}
	s.tr = New(s.f, Options{Now: func() time.Time { return s.clock }})
	return s
}

// ask is app's series through sweepSeries: "solo", "shared" or the error.
func (s *sweepSide) ask(t *testing.T, app int64) string {
	t.Helper()
	c := Caller{KeyHash: "k", AccountID: 1}
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) // one window, whatever the clock
	w := metricdata.Window{Since: until.Add(-30 * time.Minute), Until: until, Period: time.Minute}
	series, err := s.tr.sweepSeries(context.Background(), c, MetricScope{AppID: app}, []string{"HttpDispatcher"}, w, false,
		func() (map[string][]metricdata.Row, error) {
			if block := s.block; block != nil {
				s.entered <- struct{}{}
				<-block
				return map[string][]metricdata.Row{}, nil
			}
			s.solo = append(s.solo, app)
			return map[string][]metricdata.Row{}, nil
		})
	switch {
	case err != nil:
		return err.Error()
	case len(series["HttpDispatcher"]) > 0:
		return "shared"
	}
	return "solo"
}

// Requests one after another: the first is asked alone; the next, for another
// application within sweepGap, reads it and the applications listed after it in one
// shared query; one whose followers are all read already, the same application again,
// or one past sweepGap is asked alone.
func TestSweepSeriesOneAfterAnother(t *testing.T) {
	s := newSweepSide()
	s.tr.listed(Caller{KeyHash: "k", AccountID: 1}, []int64{1, 2, 3, 4})
	steps := []struct {
		app     int64
		advance time.Duration
		want    string
		shared  int // the guids of the newest shared query
	}{
		{1, 0, "solo", 0},
		{1, time.Second, "solo", 0}, // the same application again
		{2, 0, "shared", 3},         // 2, 3 and 4 together
		{3, 0, "solo", 3},           // 4 is read already: 3 alone (MetricDocument finds it cached first)
		{1, sweepGap + time.Nanosecond, "solo", 3},
	}
	for i, st := range steps {
		s.clock = s.clock.Add(st.advance)
		if got := s.ask(t, st.app); got != st.want {
			t.Fatalf("step %d (application %d): %s, want %s", i, st.app, got, st.want)
		}
		if st.shared > 0 && (len(s.shared) != 1 || len(s.shared[0]) != st.shared) {
			t.Fatalf("step %d: shared queries %v, want one of %d", i, s.shared, st.shared)
		}
	}
	if len(s.solo) != 4 {
		t.Errorf("solo requests %v", s.solo)
	}
}

// A request exactly sweepGap after the group's last still sweeps; a nanosecond later
// it is asked alone.
func TestSweepSeriesGapBoundary(t *testing.T) {
	for _, tc := range []struct {
		after time.Duration
		want  string
	}{{sweepGap, "shared"}, {sweepGap + time.Nanosecond, "solo"}} {
		s := newSweepSide()
		s.tr.listed(Caller{KeyHash: "k", AccountID: 1}, []int64{1, 2, 3})
		s.ask(t, 1)
		s.clock = s.clock.Add(tc.after)
		if got := s.ask(t, 2); got != tc.want {
			t.Errorf("%v after: %s, want %s", tc.after, got, tc.want)
		}
	}
}

// A sweep reads at most sweepMaxApps applications in one query.
func TestSweepSeriesAtMostSweepMaxApps(t *testing.T) {
	s := newSweepSide()
	s.tr.listed(Caller{KeyHash: "k", AccountID: 1}, sweepIDs(1, 60))
	s.ask(t, 1)
	if got := s.ask(t, 2); got != "shared" || len(s.shared) != 1 || len(s.shared[0]) != sweepMaxApps {
		t.Fatalf("%s, shared %d", got, len(s.shared))
	}
	if s.shared[0][0] != AppGUID(1, DomainAPM, 2) {
		t.Errorf("the shared query starts at %s, want application 2's guid", s.shared[0][0])
	}
}

// A request while another of its group is being answered alone is concurrent: it
// reads the listed followers in a shared query even for the same application.
func TestSweepSeriesBesideARequestAskedAlone(t *testing.T) {
	s := newSweepSide()
	s.tr.listed(Caller{KeyHash: "k", AccountID: 1}, []int64{1, 2, 3})
	block := make(chan struct{})
	s.block, s.entered = block, make(chan struct{})
	first := make(chan string)
	go func() { first <- s.ask(t, 1) }()
	<-s.entered
	s.block = nil // the next solo request (none expected) is not held
	got := s.ask(t, 1)
	close(block)
	if got != "shared" || len(s.shared) != 1 || len(s.shared[0]) != 3 {
		t.Errorf("beside a request asked alone: %s, shared %v; want one query of 3", got, s.shared)
	}
	if got := <-first; got != "solo" {
		t.Errorf("the first request: %s", got)
	}
}

// A sweep looks for uncached followers among the next 4*sweepMaxApps listed.
func TestSweepNextLooksFourCapsAhead(t *testing.T) {
	s := newSweepSide()
	c := Caller{KeyHash: "k", AccountID: 1}
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	w := metricdata.Window{Since: until.Add(-30 * time.Minute), Until: until, Period: time.Minute}
	names := []string{"HttpDispatcher"}
	s.tr.listed(c, sweepIDs(1, 300))
	cached := 4*sweepMaxApps - (sweepMaxApps - 1) // the cached, then exactly a query's worth before the look-ahead ends
	for id := int64(2); id < int64(2+cached); id++ {
		key, err := soloSeriesKey(c, MetricScope{AppID: id}, names, w, false)
		if err != nil {
			t.Fatal(err)
		}
		s.tr.st.Metrics.Set(key, map[string][]metricdata.Row{})
	}
	want := sweepIDs(int64(2+cached), int64(1+4*sweepMaxApps))
	if got := s.tr.sweepNext(c, 1, names, w, false); !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// A request waiting for a shared query another request sent waits no longer than its
// own request lasts: the request's deadline (Calls.SetDeadline, as the gateway sets
// it), not only its context's end, ends the wait.
func TestSweepWaitEndsAtTheRequestsDeadline(t *testing.T) {
	s := newSweepSide()
	calls := new(ng.Calls)
	calls.SetDeadline(time.Now().Add(20 * time.Millisecond))
	ctx := ng.WithCalls(context.Background(), calls)
	never := &sweepFetch{done: make(chan struct{})} // the other request's query, still under way
	done := make(chan error, 1)
	go func() {
		_, err := s.tr.awaitSweep(ctx, never, 7, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the request's deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait outlived the request's deadline")
	}
}
