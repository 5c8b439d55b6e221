//go:build linux

package graphql

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// TestTransportKeepAlive: connections to NerdGraph send TCP keep-alive probes after 30 s
// idle (a zero KeepAlive would mean Go's default of 15 s). Read back from the socket
// (TCP_KEEPIDLE, Linux only).
func TestTransportKeepAlive(t *testing.T) {
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
