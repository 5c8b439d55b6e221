package gateway

import (
	"testing"
	"time"
)

// The server answers behind every timeout net/http has: a zero one would let a
// caller that sends or reads slowly hold a connection for ever.
func TestNewServerTimeouts(t *testing.T) {
	s := NewServer(nil, nil)
	for name, d := range map[string]time.Duration{"ReadHeaderTimeout": s.ReadHeaderTimeout, "ReadTimeout": s.ReadTimeout,
		"WriteTimeout": s.WriteTimeout, "IdleTimeout": s.IdleTimeout} {
		if d <= 0 {
			t.Errorf("%s = %v", name, d)
		}
	}
	if s.MaxHeaderBytes != 64<<10 || s.ErrorLog == nil {
		t.Errorf("MaxHeaderBytes %d, ErrorLog %v", s.MaxHeaderBytes, s.ErrorLog)
	}
}
