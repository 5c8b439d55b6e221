package gateway

import (
	"net/http"
	"time"

	"go.uber.org/zap"
)

// Server timeouts: a caller that sends its header slowly, its body slowly or reads the
// answer slowly holds a connection for at most these (hostile callers), and an idle
// keep-alive connection is closed after idleTimeout.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 120 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// NewServer is the HTTP server the gateway answers on (`v2bridge serve` and `demo`),
// with the timeouts above and net/http's own errors logged to log. The load harness
// (tests/bench) serves the measured gateway and its ReverseProxy peer on it too, so
// both pay for these deadlines as a deployed gateway does.
func NewServer(h http.Handler, log *zap.Logger) *http.Server {
	if log == nil {
		log = zap.NewNop()
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          zap.NewStdLog(log),
	}
}
