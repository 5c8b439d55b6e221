package translate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// Sweeps share their queries. A script that reads the metric data of the same names
// and window for many applications of an account (a sweep) asks for one application
// after another, or for many at once. Its requests form a group: one caller, one
// account, the same names (one chunk), window and summarize, an application's own
// scope (no host, instance or mobile). Values are no part of the group: the query is
// the same for any values.
//
//   - A group's first request is sent alone, at once.
//   - A request of the group for another application within sweepGap of the last is
//     a sweep: its query also reads the applications that follow it in the caller's
//     last application list (listed), up to sweepMaxApps in all, not cached or asked
//     already: one MetricSweep (appId IN (...), FACET appId, metricTimesliceName, and
//     entities(guids:) to know which exist). Each application's rows are stored under
//     its own query's cache key, as its own query would have answered them, for
//     MetricDataTTL: the later requests of the sweep are cache hits. An application
//     the caller did not list, or not after this one, is asked alone.
//   - A request whose application a shared query is reading waits for that query:
//     its own answer. A request of a group whose shared query is under way for others
//     (a concurrent sweep) gathers with the group's other such requests for at most
//     sweepGather, or until they fill a query, then they are asked together.
//
// A shared answer is only ever used whole: an application of it that NerdGraph does
// not show in the account answers 404 as alone; a failed shared query (refused, timed
// out, an answer whose facets are not [appId, name]) is used by nobody: every request
// that waited for it is then asked alone, and gets its own answer or its own error.
// Memory: sweepGroups groups of a few words and the applications in flight, and the
// last listed ids of sweepOrders callers (sweepOrderIDs each).

// Sweep sharing's bounds.
const (
	// sweepMaxApps is the most applications of one shared query: NerdGraph's bound on
	// actor.entities(guids:) (sim maxEntitiesGuids).
	sweepMaxApps = 25
	// sweepGap is how close a group's requests come to form a sweep.
	sweepGap = 30 * time.Second
	// sweepGather is the longest a request gathers with its concurrent partners.
	sweepGather = 3 * time.Millisecond
	sweepGroups = 1024
	// sweepOrders callers' last application lists are kept, sweepOrderIDs ids each.
	sweepOrders   = 64
	sweepOrderIDs = 10000
)

// sweeps is a translator's sweep groups and its callers' last listed applications.
type sweeps struct {
	gather time.Duration

	mu     sync.Mutex
	groups map[string]*sweepGroup
	orders map[string]*listOrder // by Caller.cacheKey("sweep-order")
}

func newSweeps() *sweeps {
	return &sweeps{gather: sweepGather, groups: map[string]*sweepGroup{}, orders: map[string]*listOrder{}}
}

// sweepGroup is one group's recent requests and shared queries.
type sweepGroup struct {
	last    time.Time
	lastApp int64
	flying  map[int64]*sweepFetch // applications a shared query is reading
	alone   int                   // requests of the group asked alone, under way
	open    *sweepBatch           // concurrent requests gathering
}

// sweepFetch is one shared query; done closes once series or err is set.
type sweepFetch struct {
	done   chan struct{}
	series map[int64]map[string][]metricdata.Row // the applications it found in the account
	err    error
}

// sweepBatch is a shared query gathering its applications.
type sweepBatch struct {
	apps  []int64
	fetch *sweepFetch
	full  chan struct{} // closed at sweepMaxApps
}

// listOrder is a caller's last listed application ids, in list order.
type listOrder struct {
	ids []int64
	at  time.Time
}

// listed records the ids of an application list page c was answered (their order is
// the order a sweep of them is likely to follow).
func (t *Translator) listed(c Caller, ids []int64) {
	if len(ids) == 0 {
		return
	}
	sw, key, now := t.sweeps, c.cacheKey("sweep-order"), t.now()
	sw.mu.Lock()
	defer sw.mu.Unlock()
	o := sw.orders[key]
	if o == nil {
		if len(sw.orders) >= sweepOrders {
			var oldest string
			for k, v := range sw.orders {
				if oldest == "" || v.at.Before(sw.orders[oldest].at) {
					oldest = k
				}
			}
			delete(sw.orders, oldest)
		}
		o = &listOrder{}
		sw.orders[key] = o
	}
	o.at = now
	if i := slices.Index(o.ids, ids[0]); i >= 0 {
		o.ids = o.ids[:i] // the same list again: from there on
	}
	o.ids = append(o.ids, ids...)
	if n := len(o.ids); n > sweepOrderIDs {
		o.ids = slices.Clone(o.ids[n-sweepOrderIDs:])
	}
}

// sweepable reports whether a request of s with names (queries: its chunks) may share.
func sweepable(s MetricScope, queries []string) bool {
	return !s.Mobile && s.Host == "" && s.InstanceID == 0 && s.AppID > 0 && len(queries) == 1
}

// sweepSeries is the series of s's request (names, w, summarize; key its cache key),
// from a shared query when its group shares (see above), else from solo.
func (t *Translator) sweepSeries(ctx context.Context, c Caller, s MetricScope, names []string, w metricdata.Window, summarize bool,
	solo func() (map[string][]metricdata.Row, error)) (map[string][]metricdata.Row, error) {
	sw := t.sweeps
	gkey := sweepKey(c, names, w, summarize)
	now := t.now()
	sw.mu.Lock()
	g := sw.group(gkey, now)
	if g == nil {
		sw.mu.Unlock()
		return solo()
	}
	if f := g.flying[s.AppID]; f != nil {
		sw.mu.Unlock()
		return t.awaitSweep(ctx, f, s.AppID, solo)
	}
	sweep := g.lastApp != 0 && g.lastApp != s.AppID && now.Sub(g.last) <= sweepGap
	concurrent := len(g.flying) > 0 || g.alone > 0
	// alone asks s's request alone, counted as under way in the group; sw.mu is held
	// when it is called.
	alone := func() (map[string][]metricdata.Row, error) {
		g.alone++
		sw.mu.Unlock()
		defer func() {
			sw.mu.Lock()
			g.alone--
			sw.mu.Unlock()
		}()
		return solo()
	}
	g.last, g.lastApp = now, s.AppID
	if concurrent && g.open != nil {
		b := g.open
		b.apps = append(b.apps, s.AppID)
		g.flying[s.AppID] = b.fetch
		if len(b.apps) >= sweepMaxApps {
			g.open = nil
			close(b.full)
		}
		sw.mu.Unlock()
		return t.awaitSweep(ctx, b.fetch, s.AppID, solo)
	}
	if !sweep && !concurrent {
		return alone() // a first request: alone, at once
	}
	apps := []int64{s.AppID}
	sw.mu.Unlock()
	// Outside the lock (a cache look-up each): the listed applications after this one.
	next := t.sweepNext(c, s.AppID, names, w, summarize)
	sw.mu.Lock()
	for _, id := range next {
		if len(apps) < sweepMaxApps && g.flying[id] == nil {
			apps = append(apps, id)
		}
	}
	if len(apps) == 1 && !concurrent {
		return alone()
	}
	f := &sweepFetch{done: make(chan struct{})}
	for _, id := range apps {
		g.flying[id] = f
	}
	if concurrent && len(apps) < sweepMaxApps {
		b := &sweepBatch{apps: apps, fetch: f, full: make(chan struct{})}
		g.open = b
		sw.mu.Unlock()
		timer := time.NewTimer(sw.gather)
		select {
		case <-b.full:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
		sw.mu.Lock()
		if g.open == b {
			g.open = nil
		}
		apps = b.apps
	}
	sw.mu.Unlock()
	t.runSweep(ctx, c, names, w, summarize, apps, f)
	sw.mu.Lock()
	for _, id := range apps {
		if g.flying[id] == f {
			delete(g.flying, id)
		}
	}
	sw.mu.Unlock()
	return t.awaitSweep(ctx, f, s.AppID, solo)
}

// group is gkey's group, made when there is room (nil: none; the caller asks alone).
// Called with sw.mu held.
func (sw *sweeps) group(gkey string, now time.Time) *sweepGroup {
	if g := sw.groups[gkey]; g != nil {
		return g
	}
	if len(sw.groups) >= sweepGroups {
		for k, g := range sw.groups {
			if len(g.flying) == 0 && now.Sub(g.last) > sweepGap {
				delete(sw.groups, k)
			}
		}
		if len(sw.groups) >= sweepGroups {
			return nil
		}
	}
	g := &sweepGroup{flying: map[int64]*sweepFetch{}}
	sw.groups[gkey] = g
	return g
}

// sweepKey is a group's key: the caller and everything of the query but the scope.
func sweepKey(c Caller, names []string, w metricdata.Window, summarize bool) string {
	parts := []string{strconv.FormatInt(w.Since.UnixNano(), 10), strconv.FormatInt(w.Until.UnixNano(), 10),
		strconv.FormatInt(int64(w.Period), 10), strconv.FormatBool(summarize)}
	for _, n := range names {
		parts = append(parts, strconv.Itoa(len(n))+":"+n)
	}
	return c.cacheKey("sweep", parts...)
}

// sweepNext are the applications c listed after app, whose series for names and w are
// not cached, at most sweepMaxApps-1.
func (t *Translator) sweepNext(c Caller, app int64, names []string, w metricdata.Window, summarize bool) []int64 {
	sw := t.sweeps
	sw.mu.Lock()
	var after []int64
	if o := sw.orders[c.cacheKey("sweep-order")]; o != nil {
		if i := slices.Index(o.ids, app); i >= 0 {
			after = slices.Clone(o.ids[i+1 : min(i+1+4*sweepMaxApps, len(o.ids))])
		}
	}
	sw.mu.Unlock()
	var out []int64
	for _, id := range after {
		if len(out) == sweepMaxApps-1 {
			break
		}
		key, err := soloSeriesKey(c, MetricScope{AppID: id}, names, w, summarize)
		if err != nil {
			return out
		}
		if _, ok := t.st.Metrics.Get(key); !ok && !slices.Contains(out, id) && id != app {
			out = append(out, id)
		}
	}
	return out
}

// soloSeriesKey is the cache key of s's series for names and w: MetricDocument's.
func soloSeriesKey(c Caller, s MetricScope, names []string, w metricdata.Window, summarize bool) (string, error) {
	q, err := metricDataNRQL(s, c.AccountID, names, w, summarize)
	if err != nil {
		return "", err
	}
	return c.cacheKey("metric-data", s.guid(c.AccountID), q), nil
}

// runSweep reads apps' series in one MetricSweep and ends f: each application found in
// the account gets its series, stored under its own query's key too.
func (t *Translator) runSweep(ctx context.Context, c Caller, names []string, w metricdata.Window, summarize bool, apps []int64, f *sweepFetch) {
	defer close(f.done)
	var scope, list NRQL
	where, err := scope.Raw("appId IN ").IntList(apps).Build()
	if err == nil {
		var in string
		if in, err = list.StrList(names).Build(); err == nil {
			q := metricdata.SweepNRQL(where, in, w, summarize)
			f.series, err = t.fetchSweep(ctx, c, apps, q)
		}
	}
	if err != nil {
		f.err = err
		return
	}
	for id, series := range f.series {
		if key, err := soloSeriesKey(c, MetricScope{AppID: id}, names, w, summarize); err == nil {
			t.st.Metrics.Set(key, series)
		}
	}
}

// fetchSweep sends a shared query q for apps and splits its answer by application
// (metricdata.SplitSweep), keeping those NerdGraph shows in c's account.
func (t *Translator) fetchSweep(ctx context.Context, c Caller, apps []int64, q string) (map[int64]map[string][]metricdata.Row, error) {
	guids := make([]*string, len(apps))
	ids := make(map[string]int64, len(apps))
	for i, id := range apps {
		g := AppGUID(c.AccountID, DomainAPM, id)
		guids[i], ids[g] = &g, id
	}
	resp, err := ng.MetricSweep(ctx, t.client, guids, int(c.AccountID), q)
	if err != nil {
		return nil, fmt.Errorf("shared metric data: %w", err)
	}
	actor := resp.GetActor()
	if actor == nil || actor.Account == nil || actor.Account.Q == nil {
		return nil, fmt.Errorf("shared metric data: no account in the answer")
	}
	byApp, ok := metricdata.SplitSweep(actor.Account.Q.Results)
	if !ok {
		return nil, fmt.Errorf("shared metric data: facets not by application and name")
	}
	out := make(map[int64]map[string][]metricdata.Row, len(apps))
	for _, pe := range actor.Entities {
		if pe == nil || *pe == nil {
			continue
		}
		e := *pe
		if e.GetAccountId() == nil || int64(*e.GetAccountId()) != c.AccountID || e.GetGuid() == nil {
			continue
		}
		if id, ok := ids[*e.GetGuid()]; ok {
			out[id] = metricdata.Series([][]metricdata.Row{byApp[id]})
		}
	}
	return out, nil
}

// awaitSweep is app's series from f once it ends: not found when f's answer does not
// show app in the account; from solo when f failed (or ctx ended first).
func (t *Translator) awaitSweep(ctx context.Context, f *sweepFetch, app int64, solo func() (map[string][]metricdata.Row, error)) (map[string][]metricdata.Row, error) {
	wait, cancel := ng.WaitContext(ctx) // no longer than the request lasts
	defer cancel()
	select {
	case <-f.done:
	case <-wait.Done():
		return nil, fmt.Errorf("metric data: %w", wait.Err())
	}
	if f.err != nil {
		return solo()
	}
	if series, ok := f.series[app]; ok {
		return series, nil
	}
	return nil, ErrApplicationNotFound()
}
