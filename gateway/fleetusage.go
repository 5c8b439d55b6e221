package gateway

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/translate/fleet"
)

// The usage report's rows fleet-wide (issue 21): with a store, each replica adds the
// calls it counted since its last flush to the store every usageFlushEvery (and before
// answering a report), and /v2bridge/report on any replica shows the fleet's rows.
// The deltas are taken by comparing the book with what was last flushed, so the
// request path does no store call; a failed flush keeps its deltas for the next one
// (a flush whose answer was lost may count twice: declared). Prometheus totals stay
// per replica, as before.

// usageFlushEvery is how often a replica adds its new counts to the store.
const usageFlushEvery = time.Second

type fleetUsage struct {
	store *fleet.Store
	book  *usageBook
	log   *zap.Logger

	mu      sync.Mutex
	flushed map[usageKey]Usage // counts already in the store
}

func newFleetUsage(store *fleet.Store, book *usageBook, log *zap.Logger) *fleetUsage {
	f := &fleetUsage{store: store, book: book, log: log, flushed: map[usageKey]Usage{}}
	// Counts restored from the state file are this replica's history, not new calls:
	// they are not added to the fleet's rows again.
	for _, u := range book.snapshot() {
		f.flushed[usageKey{u.Caller, u.Agent, u.Route}] = u
	}
	go f.run()
	return f
}

func (f *fleetUsage) run() {
	t := time.NewTicker(usageFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-f.store.Done():
			return
		case <-t.C:
			_ = f.flush(context.Background())
		}
	}
}

// flush adds the calls counted since the last flush to the store.
func (f *fleetUsage) flush(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var deltas []fleet.UsageRow
	rows := f.book.snapshot()
	for _, u := range rows {
		k := usageKey{u.Caller, u.Agent, u.Route}
		prev := f.flushed[k]
		if u.Count == prev.Count && u.Errors == prev.Errors {
			continue
		}
		deltas = append(deltas, fleet.UsageRow{Caller: u.Caller, Agent: u.Agent, Route: u.Route, Mode: u.Mode, Fidelity: u.Fidelity,
			Account: u.Account, Count: u.Count - prev.Count, Errors: u.Errors - prev.Errors, LastSeen: u.LastSeen.Unix()})
	}
	if err := f.store.AddUsage(ctx, deltas); err != nil {
		return err
	}
	for _, u := range rows {
		f.flushed[usageKey{u.Caller, u.Agent, u.Route}] = u
	}
	return nil
}

// rows flushes this replica's counts and returns the fleet's rows, bounded as the
// book is (callers beyond maxCallers count as "other").
func (f *fleetUsage) rows(ctx context.Context) ([]Usage, error) {
	if err := f.flush(ctx); err != nil {
		return nil, err
	}
	fr, err := f.store.Usage(ctx)
	if err != nil {
		return nil, err
	}
	sort.Slice(fr, func(i, j int) bool { return fr[i].Count > fr[j].Count })
	callers := map[string]struct{}{}
	merged := map[usageKey]*Usage{}
	ops := operations()
	for _, r := range fr {
		k := usageKey{bucket(callers, f.book.maxCallers, r.Caller), r.Agent, r.Route}
		u := merged[k]
		if u == nil {
			u = &Usage{Caller: k.caller, Agent: k.agent, Route: k.route}
			merged[k] = u
		}
		u.Count += r.Count
		u.Errors += r.Errors
		if seen := time.Unix(r.LastSeen, 0).UTC(); seen.After(u.LastSeen) {
			u.LastSeen, u.Mode, u.Fidelity = seen, r.Mode, r.Fidelity
			if r.Account != 0 {
				u.Account = r.Account
			}
		}
	}
	out := make([]Usage, 0, len(merged))
	for _, u := range merged {
		u.Operation = strings.Join(ops[u.Route], ", ")
		u.Explain = explainLink(u.Route, u.Account)
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Caller != out[j].Caller {
			return out[i].Caller < out[j].Caller
		}
		if out[i].Agent != out[j].Agent {
			return out[i].Agent < out[j].Agent
		}
		return out[i].Route < out[j].Route
	})
	return out, nil
}
