package migrate

import (
	"bytes"
	"context"
	"github.com/v2bridge/v2bridge/gateway"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/state/fleet"
)

// lossyProxy forwards loopback TCP to the store; while dropReply is set, the next
// answer the store sends to a usage push is read and thrown away and the client's
// connection is cut (the command was applied, its answer lost). Only a connection whose
// last command named the usage keys is cut: the store's other traffic (its probe) may
// answer in between and must not take the drop.
type lossyProxy struct {
	ln        net.Listener
	target    string
	dropReply atomic.Bool
	dropped   atomic.Int64
	wg        sync.WaitGroup
}

func newLossyProxy(t *testing.T, target string) *lossyProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &lossyProxy{ln: ln, target: target}
	go p.accept()
	t.Cleanup(func() { _ = ln.Close(); p.wg.Wait() })
	return p
}

func (p *lossyProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.wg.Add(2)
		var push atomic.Bool // the last command sent on this connection was a usage push
		go func() {
			defer p.wg.Done()
			defer s.Close()
			buf := make([]byte, 32<<10)
			for {
				n, err := c.Read(buf)
				if n > 0 {
					push.Store(bytes.Contains(buf[:n], []byte("usage")))
					if _, werr := s.Write(buf[:n]); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
		go func() {
			defer p.wg.Done()
			defer c.Close()
			buf := make([]byte, 32<<10)
			for {
				n, err := s.Read(buf)
				if n > 0 && push.Load() && p.dropReply.CompareAndSwap(true, false) {
					p.dropped.Add(1)
					_ = s.Close()
					return
				}
				if n > 0 {
					if _, err := c.Write(buf[:n]); err != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// A usage flush whose answer is lost (the store applied it) is resent with the same
// push number once the store answers again, and the fleet's rows count each call once.
// Fails with a new push number (or HINCRBY deltas without one) for the resend: the
// calls of the lost push are counted twice.
func TestFleetUsageLostReplyCountedOnce(t *testing.T) {
	m := miniredis.RunT(t)
	proxy := newLossyProxy(t, m.Addr())
	store, err := fleet.Open(fleet.Options{URL: "redis://" + proxy.ln.Addr().String(), KeyPrefix: "t:", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	book := newUsageBook(gateway.NewMetrics(), 10, 10)
	f := &fleetUsage{store: store, book: book, log: zap.NewNop(), flushed: map[usageKey]Usage{}, id: "replica-a"}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	call := func(n int) {
		for range n {
			book.record(gateway.Call{Caller: "aaaaaaaa", Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: 200, At: at})
		}
	}
	ctx := context.Background()
	call(5)
	if err := f.flush(ctx); err != nil {
		t.Fatal(err)
	}
	call(3)
	proxy.dropReply.Store(true)
	if err := f.flush(ctx); err == nil {
		t.Fatal("the flush whose answer was lost succeeded")
	}
	if proxy.dropped.Load() != 1 {
		t.Fatalf("%d answers dropped", proxy.dropped.Load())
	}
	call(2)
	deadline := time.Now().Add(5 * time.Second)
	for f.flush(ctx) != nil { // the store is marked down until its probe (1 s) answers
		if time.Now().After(deadline) {
			t.Fatal("the store never came back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	rows, err := store.Usage(ctx)
	if err != nil || len(rows) != 1 || rows[0].Count != 10 {
		t.Fatalf("fleet rows %+v %v, want 10 calls", rows, err)
	}
}

// TestFleetUsageNextPush: a push carries only the calls counted since the last flush,
// and there is none when nothing was counted:
//   - an unchanged row makes no push of zero deltas;
//   - the second push does not add the errors already flushed again.
func TestFleetUsageNextPush(t *testing.T) {
	book := newUsageBook(gateway.NewMetrics(), 10, 10)
	f := &fleetUsage{book: book, log: zap.NewNop(), flushed: map[usageKey]Usage{}, id: "replica-a"}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	call := func(n, status int) {
		for range n {
			book.record(gateway.Call{Caller: "aaaaaaaa", Route: "applications.list", Fidelity: gateway.Approximate, Agent: "curl/8", Status: status, At: at})
		}
	}
	flushed := func(p *usagePush) { // what flush does once the store applied p
		for _, u := range p.rows {
			f.flushed[usageKey{u.Caller, u.Agent, u.Route}] = u
		}
	}
	call(5, 200)
	call(1, 500)
	p := f.nextPush()
	if p == nil || len(p.deltas) != 1 || p.deltas[0].Count != 6 || p.deltas[0].Errors != 1 || p.seq != 1 {
		t.Fatalf("first push %+v, want one row of 6 calls, 1 error, push 1", p)
	}
	flushed(p)
	if p := f.nextPush(); p != nil {
		t.Fatalf("push %+v with no call counted since the last flush", p)
	}
	call(3, 200)
	call(2, 404)
	p = f.nextPush()
	if p == nil || len(p.deltas) != 1 || p.deltas[0].Count != 5 || p.deltas[0].Errors != 2 || p.seq != 2 {
		t.Fatalf("second push %+v, want one row of the 5 new calls, 2 errors, push 2", p)
	}
}

// TestFleetUsageAccount: the fleet report's row carries the account of the row's
// last call (and the explain link names it), read back from the store by another
// replica.
func TestFleetUsageAccount(t *testing.T) {
	m := miniredis.RunT(t)
	open := storeOpener(t, m)
	a := New(Config{Store: open()}, zap.NewNop())
	b := New(Config{Store: open()}, zap.NewNop())
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	a.usage.record(gateway.Call{Caller: "aaaaaaaa", Route: "applications.list", Fidelity: gateway.Approximate, Account: 4242, Agent: "curl/8", Status: 200, At: at})
	if err := a.fleetRows.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows, err := b.fleetRows.rows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Account != 4242 || !strings.HasSuffix(rows[0].Explain, "&account=4242") {
		t.Fatalf("replica b's rows %+v, want replica a's call with account 4242", rows)
	}
}

// The fleet's rows survive a store that restarts empty: each replica adds its whole
// book again, the one with new calls on its next push, the idle one on its next flush
// (it reads the rows' epoch), and no call is counted twice once both have.
func TestFleetUsageSurvivesAStoreRestart(t *testing.T) {
	m := miniredis.RunT(t)
	open := storeOpener(t, m)
	a := New(Config{Store: open()}, zap.NewNop())
	b := New(Config{Store: open()}, zap.NewNop())
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	call := func(p *Pilot, route string, n int) {
		for range n {
			p.usage.record(gateway.Call{Caller: "aaaaaaaa", Route: route, Fidelity: gateway.Approximate, Agent: "cron/1", Status: 200, At: at})
		}
	}
	ctx := context.Background()
	counts := func() map[string]int64 {
		t.Helper()
		rows, err := a.fleetRows.rows(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, r := range rows {
			out[r.Route] += r.Count
		}
		return out
	}
	call(a, "applications.list", 4)
	call(b, "alerts_policies.list", 2) // the monthly cron, on replica b
	for _, p := range []*Pilot{a, b} {
		if err := p.fleetRows.flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := counts(); got["applications.list"] != 4 || got["alerts_policies.list"] != 2 {
		t.Fatalf("before the restart: %v", got)
	}
	m.FlushAll() // the store restarts empty
	call(a, "applications.list", 1)
	if err := b.fleetRows.flush(ctx); err != nil { // idle: nothing new to push
		t.Fatal(err)
	}
	got := counts() // a flushes first
	if got["applications.list"] != 5 || got["alerts_policies.list"] != 2 {
		t.Fatalf("after the restart: %v, want every replica's counts (5 and 2)", got)
	}
	for range 2 { // further flushes add nothing again
		for _, p := range []*Pilot{a, b} {
			if err := p.fleetRows.flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := counts(); got["applications.list"] != 5 || got["alerts_policies.list"] != 2 {
		t.Fatalf("later: %v, want 5 and 2", got)
	}
}
