package translate

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fullReads counts the pages of whole-search reads f answered (index reads).
func fullReads(f *nameFake) int {
	f.opFake.mu.Lock()
	defer f.opFake.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if q, _ := c.vars["query"].(string); c.op == "AppNamePage" && !strings.Contains(q, "name = ") {
			n++
		}
	}
	return n
}

// An index younger than the refresh age is served as is; older, it is still served
// with no round trip on the caller's path while one read of it runs in the background,
// which then serves an application created meanwhile by a fragment of its name; read
// before a write to the account, it is refreshed the same way; older than the max
// staleness it is read on the caller's path.
func TestNameIndexServedStaleWhileRefreshed(t *testing.T) {
	clock := newTestClock()
	f := newNameFake(manyApps(450))
	pages := indexPages(451) // one read of the index, before or after new-service
	tr := New(f, Options{Now: clock.now, NameIndexRefresh: 5 * time.Minute, NameIndexMaxStale: time.Hour})
	c := Caller{KeyHash: "k", AccountID: 1}
	f.caller = &ng.Calls{}
	ctx := ng.WithCalls(context.Background(), f.caller)
	lookup := func(name string) []int64 {
		t.Helper()
		ids, err := tr.indexedMatches(ctx, c, "", AppListRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	steps := []struct {
		name       string
		advance    time.Duration
		write      bool
		lookup     string
		wantIDs    []int64
		callerPath int // whole-search pages read during the lookup
		background int // whole-search pages read after it, in the background
	}{
		{"cold", 0, false, "app-00007", []int64{7}, pages, 0},
		{"young", 4 * time.Minute, false, "app-00008", []int64{8}, 0, 0},
		{"past the refresh age: served, read behind", 2 * time.Minute, false, "app-0045", []int64{450}, 0, pages},
		{"refreshed: a fragment of a new name", 0, false, "new-", []int64{451}, 0, 0},
		{"a write to the account", time.Minute, true, "app-00009", []int64{9}, 0, pages},
		{"within the max staleness", 59 * time.Minute, false, "app-00010", []int64{10}, 0, pages},
		{"past it: read on the caller's path", 61 * time.Minute, false, "app-00011", []int64{11}, pages, 0},
	}
	for _, s := range steps {
		clock.advance(s.advance)
		if s.write {
			tr.wroteAccount(c)
		}
		callerBefore, behindBefore := f.pages()
		ids := lookup(s.lookup)
		tr.index.WaitRefreshes()
		during, behind := f.pages()
		during, behind = during-callerBefore, behind-behindBefore
		if !slices.Equal(ids, s.wantIDs) || during != s.callerPath || behind != s.background {
			t.Errorf("%s: ids %v, %d pages on the caller's path, %d behind; want %v, %d, %d",
				s.name, ids, during, behind, s.wantIDs, s.callerPath, s.background)
		}
		if s.name == "young" {
			f.add(fakeApp{451, "new-service", "go"}) // created after the index was read
		}
	}
}

// One background read per key at a time, and at most nameIndexRefreshes across keys:
// lookups of a stale index while its read is blocked start no other read, and stale
// indexes of more accounts than the bound start only as many reads.
func TestNameIndexRefreshesBounded(t *testing.T) {
	clock := newTestClock()
	f := newNameFake(manyApps(10))
	tr := New(f, Options{Now: clock.now})
	ctx := context.Background()
	callers := make([]Caller, nameIndexRefreshes+2)
	for i := range callers {
		callers[i] = Caller{KeyHash: "k", AccountID: int64(i + 1)}
		if _, _, err := tr.nameIndex(ctx, callers[i]); err != nil {
			t.Fatal(err)
		}
	}
	gate := make(chan struct{})
	f.mu.Lock()
	f.gate = gate
	f.mu.Unlock()
	clock.advance(DefaultNameIndexRefresh)
	before := f.count("AppCursor") // one a read
	for range 3 {
		if _, _, err := tr.nameIndex(ctx, callers[0]); err != nil {
			t.Fatal(err)
		}
	}
	one := tr.index.Stats().Refreshing
	if one != 1 {
		t.Errorf("one stale key started %d reads", one)
	}
	for range 3 {
		for _, c := range callers {
			if _, _, err := tr.nameIndex(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	running := tr.index.Stats().Refreshing
	close(gate)
	tr.index.WaitRefreshes()
	if running != nameIndexRefreshes || f.count("AppCursor")-before != nameIndexRefreshes {
		t.Errorf("%d reads running, %d read; want %d and %d", running, f.count("AppCursor")-before,
			nameIndexRefreshes, nameIndexRefreshes)
	}
}

// An account past the cap on entries keeps no index: the read stops past the cap, the
// name is matched by reading the search (the path without an index), and the mark that
// the account is too large spares the index's read for the max staleness.
func TestNameIndexPastCap(t *testing.T) {
	f := newNameFake(manyApps(700)) // 4 pages
	tr := New(f, Options{NameIndexMaxApps: 300})
	c := Caller{KeyHash: "k", AccountID: 1}
	query, _ := EntitySearch(1, DomainAPM, TypeApp).Build()
	// The index's read stops at the count (past the cap; the partitions' first pages
	// may be under way), then the search is read; the next lookup reads the search alone.
	for i, want := range [][2]int{{1 + 4, indexCalls(0) + 4}, {4, 4}} {
		before := f.count("")
		ids, err := tr.indexedMatches(context.Background(), c, query, AppListRequest{Name: "app-0069"})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.count("") - before; !slices.Equal(ids, []int64{690, 691, 692, 693, 694, 695, 696, 697, 698, 699}) || got < want[0] || got > want[1] {
			t.Errorf("lookup %d: ids %v with %d round trips, want %d to %d", i, ids, got, want[0], want[1])
		}
	}
	if entries, tooLarge, ok := tr.index.Held(c.indexCaller()); !ok || !tooLarge || entries != nil {
		t.Errorf("kept %d entries, past the cap %v, held %v", len(entries), tooLarge, ok)
	}
}

// A failed background read leaves the index served, and the next read waits
// nameIndexRetry instead of starting with every lookup.
func TestNameIndexRefreshFailureWaits(t *testing.T) {
	clock := newTestClock()
	f := newNameFake(manyApps(10))
	var failing atomic.Bool
	answer := f.answer
	f.answer = func(op string, vars map[string]any) (any, error) {
		if failing.Load() {
			return nil, errors.New("fake: NerdGraph unavailable")
		}
		return answer(op, vars)
	}
	var heard atomic.Int32 // failures the process hears (it logs them: no request does)
	tr := New(f, Options{Now: clock.now, Background: func(what string, err error) {
		if what == "name index refresh" && err != nil {
			heard.Add(1)
		}
	}})
	c := Caller{KeyHash: "k", AccountID: 1}
	ctx := context.Background()
	if _, _, err := tr.nameIndex(ctx, c); err != nil {
		t.Fatal(err)
	}
	failing.Store(true)
	for _, s := range []struct {
		name    string
		advance time.Duration
		reads   int
	}{
		{"due: read, fails", DefaultNameIndexRefresh, 1},
		{"within the retry wait", nameIndexRetry / 2, 0},
		{"past it: read again", nameIndexRetry / 2, 1},
	} {
		clock.advance(s.advance)
		before := f.count("AppCursor") // one a read
		if es, _, err := tr.nameIndex(ctx, c); err != nil || len(es) != 10 {
			t.Fatalf("%s: %d entries, %v", s.name, len(es), err)
		}
		tr.index.WaitRefreshes()
		if got := f.count("AppCursor") - before; got != s.reads {
			t.Errorf("%s: %d reads, want %d", s.name, got, s.reads)
		}
	}
	if got := heard.Load(); got != 2 {
		t.Errorf("failed background reads heard: %d, want 2", got)
	}
}

// Callers asking for a cold index at the same time share one read of it: three deploy
// hooks of one pipeline read the account's pages once, and all get the whole index.
// When the first caller leaves mid-read, a caller still waiting reads it itself.
func TestColdNameIndexReadOnceForCallersAtOnce(t *testing.T) {
	for _, leaderLeaves := range []bool{false, true} {
		f := newNameFake(manyApps(3 * PageSize))
		f.gate = make(chan struct{})
		tr := New(f, Options{})
		c := Caller{KeyHash: "k", AccountID: 1}
		leaderCtx, leave := context.WithCancel(context.Background())
		type got struct {
			n   int
			err error
		}
		results := make(chan got, 3)
		ask := func(ctx context.Context) {
			es, _, err := tr.nameIndex(ctx, c)
			results <- got{len(es), err}
		}
		go ask(leaderCtx)
		for f.count("AppNamePage") != indexPages(0) { // the first caller's read is under way, held at its first pages
			runtime.Gosched()
		}
		go ask(context.Background())
		go ask(context.Background())
		for tr.index.Stats().ColdWaiting != 3 {
			if f.count("AppCursor") > 1 {
				t.Fatalf("%d reads: the callers did not share one", f.count("AppCursor"))
			}
			runtime.Gosched()
		}
		if leaderLeaves {
			leave()
			if r := <-results; !errors.Is(r.err, context.Canceled) {
				t.Fatalf("leader: %v, want its context's end", r.err)
			}
			first := f.gate
			f.mu.Lock()
			f.gate = make(chan struct{}) // holds the read made again
			f.mu.Unlock()
			close(first) // the leader's read meets its end after its first page
			for tr.index.Stats().ColdWaiting != 2 || f.count("AppCursor") != 2 {
				if f.count("AppCursor") > 2 {
					t.Fatalf("%d reads: the callers left did not share one", f.count("AppCursor"))
				}
				runtime.Gosched()
			}
		}
		close(f.gate)
		for i := 0; i < 3-btoi(leaderLeaves); i++ {
			if r := <-results; r.err != nil || r.n != 3*PageSize {
				t.Fatalf("leaderLeaves=%v: %d entries, %v", leaderLeaves, r.n, r.err)
			}
		}
		leave()
		want := 1 // one read
		if leaderLeaves {
			want = 2 // the leader's, then one read again for the two left
		}
		if got := f.count("AppCursor"); got != want {
			t.Errorf("leaderLeaves=%v: %d reads, want %d", leaderLeaves, got, want)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A caller waiting for another caller's cold read of the index waits no longer than its
// own request lasts (its deadline on its calls, as the gateway sets it), while the read
// goes on for the caller that started it.
func TestColdNameIndexWaitEndsAtTheRequestsDeadline(t *testing.T) {
	f := newNameFake(manyApps(3 * PageSize))
	f.gate = make(chan struct{})
	tr := New(f, Options{})
	c := Caller{KeyHash: "k", AccountID: 1}
	leader := make(chan error, 1)
	go func() {
		_, _, err := tr.nameIndex(context.Background(), c)
		leader <- err
	}()
	for f.count("AppNamePage") != indexPages(0) { // the first caller's read is under way, held
		runtime.Gosched()
	}
	calls := new(ng.Calls)
	calls.SetDeadline(time.Now().Add(20 * time.Millisecond))
	waiter := make(chan error, 1)
	go func() {
		_, _, err := tr.nameIndex(ng.WithCalls(context.Background(), calls), c)
		waiter <- err
	}()
	select {
	case err := <-waiter:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("waiter: %v, want its request's deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiter outlived its request's deadline")
	}
	close(f.gate)
	if err := <-leader; err != nil {
		t.Fatalf("the first caller's read: %v", err)
	}
}
