package sim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Fault is one way the simulator can misbehave, for reliability tests.
type Fault struct {
	// Operation limits the fault to one operationName ("" = every request).
	Operation string
	// First limits the fault to the first N matching requests (0 = all).
	First int

	// Latency delays the answer.
	Latency time.Duration
	// Status answers this HTTP status with an empty errors body (500, 502, 503, 429).
	Status int
	// RetryAfter is sent with Status (seconds; 0 = no header).
	RetryAfter int
	// ErrorClass answers HTTP 200 with one GraphQL error of this class
	// (TOO_MANY_REQUESTS, TIMEOUT, INTERNAL_SERVER_ERROR).
	ErrorClass string
	// PartialPath keeps the real data but nulls this top-level actor field and adds an
	// error there (e.g. "account").
	PartialPath string
	// Malformed answers HTTP 200 with a body that is not JSON.
	Malformed bool
	// Truncated cuts the real answer in half.
	Truncated bool
	// Reset closes the connection without an answer.
	Reset bool
	// Hang never answers (until the client gives up).
	Hang bool
	// AfterApply serves the request first (a mutation is applied) and then misbehaves
	// with Latency, Hang, Reset or Status instead of answering: apply-then-hang,
	// apply-then-reset, apply-then-500, the writes whose outcome the caller cannot know.
	AfterApply bool
}

// Faults is a fault-injection middleware (sim.WithMiddleware(f.Middleware)); Set
// changes the active fault at any time.
type Faults struct {
	mu    sync.Mutex
	fault *Fault
	seen  int
}

// Set activates f (nil: behave).
func (fs *Faults) Set(f *Fault) {
	fs.mu.Lock()
	fs.fault, fs.seen = f, 0
	fs.mu.Unlock()
}

func (fs *Faults) active(op string) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.fault
	if f == nil || (f.Operation != "" && f.Operation != op) {
		return nil
	}
	fs.seen++
	if f.First > 0 && fs.seen > f.First {
		return nil
	}
	return f
}

// Middleware applies the active fault.
func (fs *Faults) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			OperationName string `json:"operationName"`
		}
		_ = json.Unmarshal(body, &req)
		f := fs.active(req.OperationName)
		if f == nil {
			next.ServeHTTP(w, r)
			return
		}
		var applied *bufWriter
		if f.AfterApply {
			applied = &bufWriter{header: http.Header{}}
			next.ServeHTTP(applied, r) // applied; answered late (Latency) or never
		}
		if f.Latency > 0 {
			select {
			case <-time.After(f.Latency):
			case <-r.Context().Done():
				return
			}
		}
		switch {
		case f.Hang:
			<-r.Context().Done()
			return
		case f.Reset:
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					_ = conn.Close()
				}
			}
			return
		case f.Status != 0:
			if f.RetryAfter > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
			}
			w.WriteHeader(f.Status)
			_, _ = w.Write([]byte(`{"errors":[{"message":"simulated failure"}]}`))
			return
		case f.ErrorClass != "":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"data":null,"errors":[{"message":"simulated ` + f.ErrorClass + `","extensions":{"errorClass":"` + f.ErrorClass + `"}}]}`))
			return
		case f.Malformed:
			_, _ = w.Write([]byte(`<html>upstream proxy error</html>`))
			return
		}
		rec := applied
		if rec == nil {
			rec = &bufWriter{header: http.Header{}}
			next.ServeHTTP(rec, r)
		}
		out := rec.buf.Bytes()
		switch {
		case f.Truncated:
			out = out[:len(out)/2]
		case f.PartialPath != "":
			var doc map[string]any
			if json.Unmarshal(out, &doc) == nil {
				if data, ok := doc["data"].(map[string]any); ok {
					if actor, ok := data["actor"].(map[string]any); ok {
						actor[f.PartialPath] = nil
					}
				}
				doc["errors"] = []any{map[string]any{"message": "simulated partial failure", "path": []any{"actor", f.PartialPath},
					"extensions": map[string]any{"errorClass": "INTERNAL_SERVER_ERROR"}}}
				out, _ = json.Marshal(doc)
			}
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.status)
		_, _ = w.Write(out)
	})
}

type bufWriter struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (b *bufWriter) Header() http.Header { return b.header }
func (b *bufWriter) WriteHeader(s int) {
	if b.status == 0 {
		b.status = s
	}
}
func (b *bufWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = 200
	}
	return b.buf.Write(p)
}
