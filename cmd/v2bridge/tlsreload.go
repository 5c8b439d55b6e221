package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// certCheckEvery is how often serve looks whether tls_cert_file or tls_key_file changed
// (a renewal tool or a Kubernetes Secret mount rewriting them); SIGHUP reloads at once.
const certCheckEvery = 30 * time.Second

// certReloader serves tls_cert_file/tls_key_file and reloads them without a restart:
// when either file's modification time or size changes, or on demand (SIGHUP). A pair
// that does not load (a renewal caught between writing the certificate and its key)
// leaves the previous certificate in service, is logged, and is tried again at the next
// check.
type certReloader struct {
	certFile, keyFile string
	log               *zap.Logger

	cert atomic.Pointer[tls.Certificate]
	mu   sync.Mutex // one reload at a time
	seen string     // the files' stamp when cert was loaded
}

// newCertReloader loads the pair once; serve refuses to start without it.
func newCertReloader(certFile, keyFile string, log *zap.Logger) (*certReloader, error) {
	r := &certReloader{certFile: certFile, keyFile: keyFile, log: log}
	if err := r.load(); err != nil {
		return nil, fmt.Errorf("tls_cert_file/tls_key_file: %w", err)
	}
	return r, nil
}

// GetCertificate is tls.Config.GetCertificate: the pair last loaded.
func (r *certReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return r.cert.Load(), nil
}

// stamp is the files' modification times and sizes (os.Stat follows a mount's symlinks).
func (r *certReloader) stamp() string {
	var s string
	for _, f := range []string{r.certFile, r.keyFile} {
		st, err := os.Stat(f)
		if err != nil {
			return "missing " + f
		}
		s += fmt.Sprintf("%d/%d;", st.ModTime().UnixNano(), st.Size())
	}
	return s
}

func (r *certReloader) load() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	stamp := r.stamp()
	cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		return err
	}
	r.cert.Store(&cert)
	r.seen = stamp
	return nil
}

// reload loads the pair again, keeping the one in service when the new one does not
// load; why names what asked (a file change, SIGHUP).
func (r *certReloader) reload(why string) {
	if err := r.load(); err != nil {
		r.log.Warn("TLS certificate not reloaded; the previous one stays in service", zap.String("cause", why), zap.Error(err))
		return
	}
	r.log.Info("TLS certificate reloaded", zap.String("cause", why), zap.String("cert_file", r.certFile))
}

// changed reports whether the files differ from those last loaded.
func (r *certReloader) changed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stamp() != r.seen
}

// watch reloads on each tick whose check finds the files changed and on each hup,
// until ctx ends; done, when set, is called after each tick or hup is handled (tests).
func (r *certReloader) watch(ctx context.Context, ticks <-chan time.Time, hup <-chan os.Signal, done func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if r.changed() {
				r.reload("file changed")
			}
		case <-hup:
			r.reload("SIGHUP")
		}
		if done != nil {
			done()
		}
	}
}
