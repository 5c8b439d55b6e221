package translate

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// countedApps is an account of n applications whose entity search answers with its
// count on every page and cursor hop, as NerdGraph's EntitySearch.count does; its
// translator counts every look-up in the cursor cache.
func countedApps(n int) (*Translator, *opFake, *atomic.Int64) {
	var lookups atomic.Int64
	f := &opFake{answer: func(op string, vars map[string]any) (any, error) {
		k := 1
		if c, ok := vars["cursor"].(string); ok {
			if _, err := fmt.Sscanf(c, "c%d", &k); err != nil {
				return nil, err
			}
		}
		var next any
		if k*PageSize < n {
			next = fmt.Sprintf("c%d", k+1)
		}
		switch op {
		case "AppCursor":
			return map[string]any{"actor": map[string]any{"entitySearch": map[string]any{
				"count": n, "results": map[string]any{"nextCursor": next}}}}, nil
		case "AppList":
			return map[string]any{"actor": map[string]any{
				"entitySearch": map[string]any{"count": n, "results": map[string]any{"nextCursor": next, "entities": []any{}}},
			}}, nil
		}
		return nil, fmt.Errorf("unexpected %s", op)
	}}
	tr := New(f, Options{
		Now: func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) },
		ObserveCache: func(cache string, _ bool) {
			if cache == "cursors" {
				lookups.Add(1)
			}
		},
	})
	return tr, f, &lookups
}

// A page far past the last one answers REST's empty page with at most one round trip
// and a handful of cache look-ups, however large the page number: cold (the first hop
// reads the search's count) and warm (the count kept from page 1).
func TestDeepPageAnswersEmptyWithoutWalking(t *testing.T) {
	const deep = 1_000_000
	tests := []struct {
		name        string
		warm        bool
		wantCursors int
	}{
		{"cold", false, 1},
		{"after page 1", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, f, lookups := countedApps(450)
			c := Caller{KeyHash: "k", AccountID: 1}
			if tt.warm {
				if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: 1}); err != nil {
					t.Fatal(err)
				}
			}
			lookups.Store(0)
			l, p, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: deep})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Applications) != 0 || p != (Paging{Page: deep}) {
				t.Fatalf("page %d: %d applications, paging %+v; want none, no last", deep, len(l.Applications), p)
			}
			if got := f.count("AppCursor"); got != tt.wantCursors {
				t.Errorf("%d cursor hops, want %d", got, tt.wantCursors)
			}
			if got := lookups.Load(); got > 3 {
				t.Errorf("%d cursor cache look-ups for one deep page, want at most 3", got)
			}
		})
	}
}

// The page just past the known last one is still walked to: an application created
// since the count was read may have opened it.
func TestPageAfterKnownLastIsWalked(t *testing.T) {
	tr, f, _ := countedApps(400)
	c := Caller{KeyHash: "k", AccountID: 1}
	if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: 1}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.ListApplications(context.Background(), c, AppListRequest{Page: 3}); err != nil {
		t.Fatal(err)
	}
	if got := f.count("AppCursor"); got == 0 {
		t.Error("page 3 of a search known to have 2 pages was answered without asking NerdGraph")
	}
}

// A request whose caller went away, or whose deadline passed, stops walking cursors
// before its next round trip.
func TestCursorWalkStopsWithTheRequest(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	var calls ng.Calls
	calls.SetDeadline(time.Now().Add(-time.Second))
	expired := ng.WithCalls(context.Background(), &calls)
	for name, ctx := range map[string]context.Context{"caller gone": canceled, "deadline passed": expired} {
		t.Run(name, func(t *testing.T) {
			tr, f, _ := countedApps(5000)
			_, _, err := tr.ListApplications(ctx, Caller{KeyHash: "k", AccountID: 1}, AppListRequest{Page: 20})
			if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want the context's end", err)
			}
			if got := f.count(""); got != 0 {
				t.Errorf("%d NerdGraph calls after the request ended", got)
			}
		})
	}
}
