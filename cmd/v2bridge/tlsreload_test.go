package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// writePair writes a self-signed certificate for cn and its key to cert.pem and key.pem
// in dir (only the certificate when keyToo is false), stamped at, and returns them.
func writePair(t *testing.T, dir, cn string, at time.Time, keyToo bool) (certPath, keyPath string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	files := map[string][]byte{certPath: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
	if keyToo {
		files[keyPath] = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
	}
	for path, b := range files {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	return certPath, keyPath
}

// A renewed certificate is served without a restart: after a check finds the files
// changed, or on SIGHUP; a pair caught half-written (the certificate without its key)
// leaves the previous one in service and is logged; an unchanged pair is not reloaded.
func TestTLSCertificateReloadsWithoutRestart(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	certPath, keyPath := writePair(t, dir, "first", t0, true)
	core, logs := observer.New(zap.InfoLevel)
	r, err := newCertReloader(certPath, keyPath, zap.New(core))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		_ = srv.Serve(tls.NewListener(ln, &tls.Config{GetCertificate: r.GetCertificate, MinVersion: tls.VersionTLS12}))
	}()
	defer srv.Close()
	served := func() string { // the certificate a new connection is served
		t.Helper()
		c, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // reads the served name only
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.ConnectionState().PeerCertificates[0].Subject.CommonName
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks, hup, handled := make(chan time.Time), make(chan os.Signal), make(chan struct{})
	go r.watch(ctx, ticks, hup, func() { handled <- struct{}{} })
	tick := func() { ticks <- t0; <-handled }

	if got := served(); got != "first" {
		t.Fatalf("served %q, want first", got)
	}
	tick()
	if n := logs.FilterMessage("TLS certificate reloaded").Len(); n != 0 {
		t.Errorf("an unchanged pair was reloaded %d times", n)
	}
	writePair(t, dir, "renewed", t0.Add(time.Hour), true)
	tick()
	if got := served(); got != "renewed" {
		t.Fatalf("after the files changed: served %q, want renewed", got)
	}
	writePair(t, dir, "half-written", t0.Add(2*time.Hour), false) // the new certificate, the old key
	tick()
	if got := served(); got != "renewed" || logs.FilterMessage("TLS certificate not reloaded; the previous one stays in service").Len() != 1 {
		t.Fatalf("with a mismatched pair: served %q; logs %v", got, logs.All())
	}
	writePair(t, dir, "by-signal", t0.Add(2*time.Hour), true)
	hup <- syscall.SIGHUP
	<-handled
	if got := served(); got != "by-signal" {
		t.Fatalf("after SIGHUP: served %q, want by-signal", got)
	}
}
