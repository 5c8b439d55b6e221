package gateway

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// ReadyCacheFor is how long a readiness verdict is reused, so probes do not hammer
// NerdGraph.
const ReadyCacheFor = 5 * time.Second

type readiness struct {
	check func(ctx context.Context) error

	mu      sync.Mutex
	checked time.Time
	err     error
}

func (rd *readiness) serve(w http.ResponseWriter, r *http.Request) {
	err := rd.status(r.Context())
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: " + err.Error() + "\n"))
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}

func (rd *readiness) status(ctx context.Context) error {
	if rd.check == nil {
		return nil
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if time.Since(rd.checked) < ReadyCacheFor {
		return rd.err
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	rd.err = rd.check(ctx)
	rd.checked = time.Now()
	return rd.err
}
