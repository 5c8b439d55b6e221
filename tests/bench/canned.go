package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// canned answers every NerdGraph request with the body recorded for its operation
// name, so the upstream costs (almost) nothing and always the same.
type canned struct {
	mu     sync.RWMutex
	bodies map[string][]byte
}

func (c *canned) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		OperationName string `json:"operationName"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &req)
	c.mu.RLock()
	body, ok := c.bodies[req.OperationName]
	c.mu.RUnlock()
	if !ok {
		http.Error(w, `{"errors":[{"message":"no canned answer for `+req.OperationName+`"}]}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// recorder sits in front of the simulator and keeps the last answer per operation.
type recorder struct {
	next http.Handler
	c    *canned
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	var req struct {
		OperationName string `json:"operationName"`
	}
	_ = json.Unmarshal(b, &req)
	cw := &captureWriter{ResponseWriter: w}
	rc.next.ServeHTTP(cw, r)
	rc.c.mu.Lock()
	rc.c.bodies[req.OperationName] = cw.buf.Bytes()
	rc.c.mu.Unlock()
}

type captureWriter struct {
	http.ResponseWriter
	buf bytes.Buffer
}

func (c *captureWriter) Write(p []byte) (int, error) {
	c.buf.Write(p)
	return c.ResponseWriter.Write(p)
}
