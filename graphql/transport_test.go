package graphql

import (
	"bytes"
	"testing"
	"time"
)

// TestTransportTimeoutsAndPools pins the transport's idle and TLS handshake timeouts and
// pool sizes (a zero timeout would mean none).
func TestTransportTimeoutsAndPools(t *testing.T) {
	tr := NewTransport()
	if tr.IdleConnTimeout != 90*time.Second || tr.TLSHandshakeTimeout != 5*time.Second ||
		tr.ExpectContinueTimeout != time.Second || tr.MaxIdleConns != 256 || tr.MaxIdleConnsPerHost != 128 ||
		!tr.ForceAttemptHTTP2 || tr.DialContext == nil || tr.Proxy == nil {
		t.Errorf("transport = idle %v, TLS %v, continue %v, idle conns %d/%d, h2 %v",
			tr.IdleConnTimeout, tr.TLSHandshakeTimeout, tr.ExpectContinueTimeout, tr.MaxIdleConns, tr.MaxIdleConnsPerHost, tr.ForceAttemptHTTP2)
	}
}

// TestDialerDeadlineAndPoolBounds pins three decisions no end-to-end test can see on
// loopback:
//   - newDialer's 5 s connect timeout (without one a hung connect waits for the
//     system's minutes) and its 30 s keep-alive probe;
//   - deadlineFirst: a retry whose wait ends at or after the caller's deadline cannot be
//     answered, so the error is answered now;
//   - pooled: a request buffer of up to 1 MiB is reused, a larger one is left to the
//     garbage collector; keepBody: answer buffers of up to 4 MiB go back to the pool.
func TestDialerDeadlineAndPoolBounds(t *testing.T) {
	if d := newDialer(); d.Timeout != 5*time.Second || d.KeepAlive != 30*time.Second {
		t.Errorf("dialer timeout %v keep-alive %v, want 5s and 30s", d.Timeout, d.KeepAlive)
	}
	now := time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		left, wait time.Duration
		want       bool
	}{
		{time.Second, 500 * time.Millisecond, false},
		{time.Second, time.Second, true},
		{time.Second, time.Second - time.Nanosecond, false},
		{time.Second, time.Second + time.Nanosecond, true},
		{0, 0, true},
		{-time.Second, 0, true},
	} {
		if got := deadlineFirst(now.Add(tc.left), now, tc.wait); got != tc.want {
			t.Errorf("deadlineFirst(left %v, wait %v) = %v, want %v", tc.left, tc.wait, got, tc.want)
		}
	}
	for _, tc := range []struct {
		cap  int
		want bool
	}{{0, true}, {4096, true}, {1 << 20, true}, {1<<20 + 1, false}, {8 << 20, false}} {
		if got := pooled(bytes.NewBuffer(make([]byte, 0, tc.cap))); got != tc.want {
			t.Errorf("pooled(cap %d) = %v, want %v", tc.cap, got, tc.want)
		}
	}
	// Answer buffers: up to 4 MiB go back to the pool.
	for _, tc := range []struct {
		b    []byte
		want bool
	}{{nil, false}, {[]byte{}, true}, {make([]byte, 0, 4<<20), true}, {make([]byte, 0, 4<<20+1), false}} {
		if got := keepBody(tc.b); got != tc.want {
			t.Errorf("keepBody(cap %d, nil %v) = %v, want %v", cap(tc.b), tc.b == nil, got, tc.want)
		}
	}
}
