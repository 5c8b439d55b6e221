package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// served is a `serve` running in-process on a free loopback port.
type served struct {
	base string // http://127.0.0.1:port
	logs *syncBuffer
	stop func() error // stops it (once) and returns serve's error
}

// startServe runs `serve --config` with cfg (YAML without listen:, which it adds) and
// waits until /healthz answers; the test stops it at its end if it has not.
func startServe(t *testing.T, cfg string) *served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfgPath := filepath.Join(t.TempDir(), "v2bridge.yaml")
	if err := os.WriteFile(cfgPath, []byte("listen: "+addr+"\n"+cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{base: "http://" + addr, logs: &syncBuffer{}}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", cfgPath}, strings.NewReader(""), io.Discard, s.logs)
	}()
	var stopped bool
	var stopErr error
	s.stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			stopErr = <-done
		}
		return stopErr
	}
	t.Cleanup(func() { _ = s.stop() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resp, err := http.Get(s.base + "/healthz"); err == nil {
			resp.Body.Close()
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", s.logs.String())
		}
	}
}
