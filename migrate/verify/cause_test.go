package verify

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRunSaysWhyRESTFailed: when the REST side's application list cannot be read, the
// error names the cause in words (DNS, refused, TLS, timeout, a refused key, a wrong
// URL), on loopback only: a closed port, an untrusted test certificate, a name under
// .invalid (RFC 6761: never resolves), a server slower than the client's timeout.
func TestRunSaysWhyRESTFailed(t *testing.T) {
	translation := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{}`)) }))
	defer translation.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	_ = ln.Close()

	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{}`)) }))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	stop := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		select {
		case <-stop:
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	defer close(stop)
	status := func(code int) *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(code)
			_, _ = w.Write([]byte(`{"error":{"title":"No API key specified"}}`))
		}))
		t.Cleanup(s.Close)
		return s
	}

	for _, tc := range []struct {
		name, base string
		client     *http.Client
		want       []string
	}{
		{"dns", "http://rest.invalid", nil, []string{"cannot resolve host rest.invalid"}},
		{"refused", closed, nil, []string{"nothing listens at " + strings.TrimPrefix(closed, "http://")}},
		{"tls", tlsSrv.URL, nil, []string{"TLS", "certificate", "not trust"}},
		{"plain http at https", strings.Replace(translation.URL, "http://", "https://", 1), nil, []string{"TLS", "does not answer TLS"}},
		{"timeout", slow.URL, &http.Client{Timeout: 100 * time.Millisecond}, []string{"no answer from", "timeout"}},
		{"401", status(http.StatusUnauthorized).URL, nil, []string{"refused the key (401)"}},
		{"403", status(http.StatusForbidden).URL, nil, []string{"refused the key (403)"}},
		{"404", status(http.StatusNotFound).URL, nil, []string{"answered 404", "/v2"}},
		{"500", status(http.StatusInternalServerError).URL, nil, []string{"answered 500"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), Config{REST: Side{Base: tc.base, Client: tc.client}, Translation: Side{Base: translation.URL},
				Sample: 1, PerMinute: 1 << 30})
			if err == nil {
				t.Fatal("Run = nil error")
			}
			for _, w := range append([]string{"did not list applications"}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
