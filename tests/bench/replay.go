package main

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// replayer stands in front of the simulator for the scale scenarios. Off, it passes
// every request on and keeps each 200 answer by request body; on, it answers a body it
// has kept at once, so the gateway's CPU for a page is measured without the simulator's
// pace (on 50,000 applications it takes ~0.35 s to generate an answer, and the gateway
// then reads it in more, smaller reads). A body it has not kept is passed on and counted
// as a miss.
type replayer struct {
	next   http.Handler
	on     atomic.Bool
	misses atomic.Int64

	mu      sync.RWMutex
	answers map[string][]byte
}

func newReplayer(next http.Handler) *replayer {
	return &replayer{next: next, answers: map[string][]byte{}}
}

func (p *replayer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	if p.on.Load() {
		p.mu.RLock()
		body, ok := p.answers[string(b)]
		p.mu.RUnlock()
		if ok {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return
		}
		p.misses.Add(1)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	cw := &captureWriter{ResponseWriter: w}
	p.next.ServeHTTP(cw, r)
	if cw.status == 0 || cw.status == http.StatusOK {
		p.mu.Lock()
		p.answers[string(b)] = cw.buf.Bytes()
		p.mu.Unlock()
	}
}
