package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// canned answers every NerdGraph request with the answer recorded for the same request
// body (operation and variables: two scenarios of one operation, such as metric data
// of 3 names and of 1, get their own answers), so the upstream costs (almost) nothing
// and always the same.
type canned struct {
	mu     sync.RWMutex
	bodies map[string][]byte
}

func (c *canned) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.RLock()
	body, ok := c.bodies[string(b)]
	c.mu.RUnlock()
	if !ok {
		var req struct {
			OperationName string `json:"operationName"`
		}
		_ = json.Unmarshal(b, &req)
		http.Error(w, `{"errors":[{"message":"no canned answer for `+req.OperationName+`"}]}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// recorder sits in front of the simulator and keeps its answer to each request body.
type recorder struct {
	next http.Handler
	c    *canned
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	cw := &captureWriter{ResponseWriter: w}
	rc.next.ServeHTTP(cw, r)
	rc.c.mu.Lock()
	rc.c.bodies[string(b)] = cw.buf.Bytes()
	rc.c.mu.Unlock()
}

// captureWriter keeps what is written through it and its status (0: none written,
// which net/http sends as 200).
type captureWriter struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (c *captureWriter) WriteHeader(status int) {
	c.status = status
	c.ResponseWriter.WriteHeader(status)
}

func (c *captureWriter) Write(p []byte) (int, error) {
	c.buf.Write(p)
	return c.ResponseWriter.Write(p)
}
