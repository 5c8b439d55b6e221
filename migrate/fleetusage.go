package migrate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sort"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/state"
)

// The usage report's rows fleet-wide: with a store, each replica adds the
// calls it counted since its last flush to the store every usageFlushEvery (and before
// answering a report), and /v2bridge/report on any replica shows the fleet's rows.
// The deltas are taken by comparing the book with what was last flushed, so the
// request path does no store call. A failed flush is resent as it was (the same
// deltas under the same push number) before any new one, and the store applies a push
// number of a replica once: a flush whose answer was lost is not counted twice.
// A store that restarted empty refuses a push into the rows' epoch it lost (and a
// replica with nothing new to push reads the epoch each flush): the replica then adds
// its whole book again, so the report loses no replica's counts across the restart.
// Prometheus totals stay per replica, as before.

// usageFlushEvery is how often a replica adds its new counts to the store.
const usageFlushEvery = time.Second

type fleetUsage struct {
	store state.SharedUsage
	book  *usageBook
	log   *zap.Logger

	id string // this process's name in the store's push numbers (random)

	mu      sync.Mutex
	flushed map[usageKey]Usage // counts already in the store
	seq     uint64             // the last push number used
	pending *usagePush         // a push not known to be applied (resent first)
	epoch   string             // the store's rows' epoch this replica last pushed into ("": none yet)
}

// usagePush is one flush: its number, deltas, and the book it brings the store to.
type usagePush struct {
	seq    uint64
	deltas []state.UsageRow
	rows   []Usage
}

func newFleetUsage(store state.SharedUsage, book *usageBook, log *zap.Logger) *fleetUsage {
	var b [12]byte
	_, _ = rand.Read(b[:])
	f := &fleetUsage{store: store, book: book, log: log, flushed: map[usageKey]Usage{}, id: hex.EncodeToString(b[:])}
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

// flush adds the calls counted since the last flush to the store: first a push not
// known to be applied (resent as it was), then the calls counted since; after a store
// restart that lost the rows, the whole book.
func (f *fleetUsage) flush(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range 3 {
		resend := f.pending != nil
		if !resend {
			f.pending = f.nextPush()
			if f.pending == nil {
				lost, err := f.epochLost(ctx)
				if err != nil || !lost {
					return err
				}
				f.forgetFlushed()
				continue
			}
		}
		p := f.pending
		epoch, err := f.store.AddUsageIn(ctx, f.epoch, f.id, f.id, p.seq, p.deltas)
		if errors.Is(err, state.ErrUsageLost) {
			f.forgetFlushed()
			continue
		}
		if err != nil {
			return err // p stays pending: resent, never counted twice
		}
		f.epoch = epoch
		for _, u := range p.rows {
			f.flushed[usageKey{u.Caller, u.Agent, u.Route}] = u
		}
		f.pending = nil
		if !resend {
			return nil
		}
	}
	return nil
}

// epochLost reports whether the store no longer holds the rows' epoch this replica
// pushed into (a replica that has pushed nothing has nothing the store could lose).
func (f *fleetUsage) epochLost(ctx context.Context) (bool, error) {
	if f.epoch == "" {
		return false, nil
	}
	e, err := f.store.UsageEpoch(ctx)
	if err != nil {
		return false, err
	}
	return e != f.epoch, nil
}

// forgetFlushed makes the next push carry the whole book: the store lost what this
// replica had added (a pending push is part of the book, so it is dropped too).
func (f *fleetUsage) forgetFlushed() {
	f.log.Info("usage report: the fleet store lost its rows (restarted empty); adding this replica's counts again")
	f.flushed, f.pending, f.epoch = map[usageKey]Usage{}, nil, ""
}

// nextPush is the push of the calls counted since the last flush (nil: none).
func (f *fleetUsage) nextPush() *usagePush {
	var deltas []state.UsageRow
	rows := f.book.snapshot()
	for _, u := range rows {
		k := usageKey{u.Caller, u.Agent, u.Route}
		prev := f.flushed[k]
		if u.Count == prev.Count && u.Errors == prev.Errors {
			continue
		}
		deltas = append(deltas, state.UsageRow{Caller: u.Caller, Agent: u.Agent, Route: u.Route, Mode: u.Mode, Fidelity: u.Fidelity,
			Account: u.Account, Count: u.Count - prev.Count, Errors: u.Errors - prev.Errors, LastSeen: u.LastSeen.Unix()})
	}
	if len(deltas) == 0 {
		return nil
	}
	f.seq++
	return &usagePush{seq: f.seq, deltas: deltas, rows: rows}
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
