package gateway

import (
	"testing"
	"time"

	"go.uber.org/zap"
)

// TestFleetUsageNextPushMut: a push carries only the calls counted since the last flush,
// and there is none when nothing was counted (f9be12a lines):
//   - fleetusage.go:110:40 CONDITIONALS_NEGATION (`u.Errors == prev.Errors` → `!=`): an
//     unchanged row would make a push of zero deltas;
//   - fleetusage.go:114:70 ARITHMETIC_BASE and INVERT_NEGATIVES (`u.Errors - prev.Errors` →
//     `+`): the second push would add the errors already flushed again.
func TestFleetUsageNextPushMut(t *testing.T) {
	book := newUsageBook(NewMetrics(), 10, 10)
	f := &fleetUsage{book: book, log: zap.NewNop(), flushed: map[usageKey]Usage{}, id: "replica-a"}
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	call := func(n, status int) {
		for range n {
			book.record(&reqState{callerHash: "aaaaaaaa", route: "applications.list", fidelity: Approximate}, "curl/8", status, at)
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
