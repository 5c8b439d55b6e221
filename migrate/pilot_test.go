package migrate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// TestNewCompareDefaults: a zero or negative compare timeout and log interval take
// the defaults (5 s, 10 s), a positive one is kept.
func TestNewCompareDefaults(t *testing.T) {
	tests := []struct {
		name                 string
		timeout, logEvery    time.Duration
		wantTimeout, wantLog time.Duration
	}{
		{"zero takes the defaults", 0, 0, 5 * time.Second, 10 * time.Second},
		{"negative takes the defaults", -time.Second, -time.Second, 5 * time.Second, 10 * time.Second},
		{"positive kept", 2 * time.Second, 3 * time.Second, 2 * time.Second, 3 * time.Second},
		{"one nanosecond kept", time.Nanosecond, time.Nanosecond, time.Nanosecond, time.Nanosecond},
	}
	for _, tt := range tests {
		var cfg Config
		cfg.Compare.Timeout, cfg.Compare.LogEvery = tt.timeout, tt.logEvery
		g := New(cfg, nil)
		if got := g.cmp.settings.Timeout; got != tt.wantTimeout {
			t.Errorf("%s: Compare.Timeout = %v, want %v", tt.name, got, tt.wantTimeout)
		}
		if got := g.cmp.settings.LogEvery; got != tt.wantLog {
			t.Errorf("%s: Compare.LogEvery = %v, want %v", tt.name, got, tt.wantLog)
		}
	}
}

// TestNewLoadsReportState: New restores the usage counts of ReportStateFile, warns
// only when that file cannot be read.
func TestNewLoadsReportState(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "state.json")
	if err := os.WriteFile(good, []byte(`[{"caller":"aaaaaaaa","user_agent":"curl","route":"applications.list","count":3,"errors":1}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		file      string
		wantCount int64
		wantWarns int
	}{
		{"good file restored", good, 3, 0},
		{"bad file warned", bad, 0, 1},
	}
	for _, tt := range tests {
		core, logs := observer.New(zap.WarnLevel)
		g := New(Config{ReportStateFile: tt.file}, zap.New(core))
		var n int64
		for _, u := range g.usage.snapshot() {
			n += u.Count
		}
		if n != tt.wantCount {
			t.Errorf("%s: restored count %d, want %d", tt.name, n, tt.wantCount)
		}
		if got := logs.FilterMessage("usage report state not loaded").Len(); got != tt.wantWarns {
			t.Errorf("%s: %d 'not loaded' warnings, want %d", tt.name, got, tt.wantWarns)
		}
	}
}

// TestNewRESTUpstream: the pass-through proxy goes to RESTUpstream when one is set
// (not the US endpoint).
func TestNewRESTUpstream(t *testing.T) {
	var hits atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"applications":[]}`))
	}))
	defer up.Close()
	g := New(Config{RESTUpstream: up.URL + "/v2"}, nil)
	if g.proxy == nil {
		t.Fatal("no pass-through proxy")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	g.proxy.ServeHTTP(rec, req)
	if hits.Load() != 1 || rec.Code != http.StatusOK {
		t.Errorf("pass-through: %d hits on the configured upstream, status %d; want 1 hit, 200", hits.Load(), rec.Code)
	}
}
