//go:build linux

package graphql

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// TestTransportKeepAliveMut: connections to NerdGraph send TCP keep-alive probes after
// 30 s idle (client.go:192 `KeepAlive: 30 * time.Second` → `30 / time.Second` makes it 0,
// i.e. Go's default of 15 s). Read back from the socket (TCP_KEEPIDLE, Linux only).
//
// Not killed by any own-package test: client.go:192 `Timeout: 5 * time.Second` → `/`
// (no dial timeout). A loopback connect never hangs, so a test could only show it by
// waiting 5 s for a connect that does; it is listed as a survivor in tests/MUTATION.md.
func TestTransportKeepAliveMut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			defer c.Close()
		}
	}()
	conn, err := NewTransport().DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	raw, err := conn.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var idle int
	var serr error
	if err := raw.Control(func(fd uintptr) {
		idle, serr = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE)
	}); err != nil || serr != nil {
		t.Fatal(err, serr)
	}
	if idle != 30 {
		t.Errorf("TCP_KEEPIDLE = %d s, want 30", idle)
	}
}
