package restdouble

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// TB is what a double needs of a test (TB has it): a helper mark and a cleanup
// that stops the double when the test ends.
type TB interface {
	Helper()
	Cleanup(func())
}

// Recorder is a proxy in front of a REST v2 endpoint that keeps every answer's status
// and body by request URI (path and query), to be replayed by a Replay double. Writes
// are forwarded with their bodies (the last answer per URI is kept).
type Recorder struct {
	*httptest.Server

	mu      sync.Mutex
	answers map[string]Answer
}

// Answer is a recorded status and body.
type Answer struct {
	Status int
	Body   []byte
}

// Record proxies every request to target (scheme://host, the /v2 path kept) and
// records the answers.
func Record(t TB, target string) *Recorder {
	t.Helper()
	rec := &Recorder{answers: map[string]Answer{}}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		// The answer is recorded and sent as text: the client here negotiates its own
		// compression and decodes it.
		req.Header.Del("Accept-Encoding")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		rec.mu.Lock()
		rec.answers[r.URL.RequestURI()] = Answer{Status: resp.StatusCode, Body: body}
		rec.mu.Unlock()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(body)
	}))
	t.Cleanup(rec.Close)
	return rec
}

// Answers are the recorded answers by request URI.
func (r *Recorder) Answers() map[string]Answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]Answer, len(r.answers))
	for k, v := range r.answers {
		out[k] = v
	}
	return out
}

// Replay is a REST v2 double answering recorded answers by request URI (a missing
// one is REST's 404 body); it requires an API key as REST did.
func Replay(t TB, answers map[string]Answer) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("X-Api-Key") == "" && r.Header.Get("Api-Key") == "" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"title":"No API key specified"}}`)
			return
		}
		a, ok := answers[r.URL.RequestURI()]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"error":{"title":"Route not found"}}`)
			return
		}
		w.WriteHeader(a.Status)
		_, _ = w.Write(a.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}
