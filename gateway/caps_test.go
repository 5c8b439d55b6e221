package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/v2bridge/v2bridge/translate"
)

// An answer served short of a limit (translate/caps.go) is said once at the edge: the
// X-V2bridge-Degraded header, the access line raised to warn with the caps, and
// v2bridge_degraded_total per route and cap. Without caps there is none of them.
func TestDegradedSignal(t *testing.T) {
	tests := []struct {
		name     string
		caps     []translate.Cap
		status   int
		internal error
		level    zapcore.Level
		header   string
	}{
		{"no cap", nil, 200, nil, zapcore.InfoLevel, ""},
		{"one cap", []translate.Cap{translate.CapInventory}, 200, nil, zapcore.WarnLevel, string(translate.CapInventory)},
		{"two caps, each once", []translate.Cap{translate.CapHosts, translate.CapInventory, translate.CapHosts}, 200, nil,
			zapcore.WarnLevel, string(translate.CapHosts) + ", " + string(translate.CapInventory)},
		{"an error stays an error", []translate.Cap{translate.CapViolations}, 500, errors.New("boom"), zapcore.ErrorLevel,
			string(translate.CapViolations)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.InfoLevel)
			g := New(Config{}, nil, zap.New(core))
			r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
			st := &reqState{id: "rid", route: "applications.list", internal: tt.internal}
			for _, c := range tt.caps {
				st.caps.Add(c)
			}
			w := httptest.NewRecorder()
			st.sw.ResponseWriter = w
			upstreamHeaders(w, st)
			st.sw.WriteHeader(tt.status)
			if got := w.Header().Get("X-V2bridge-Degraded"); got != tt.header {
				t.Fatalf("X-V2bridge-Degraded %q, want %q", got, tt.header)
			}
			g.observe(r, &st.sw, st)
			g.accessLog(r, &st.sw, st)
			entries := logs.All()
			if len(entries) != 1 || entries[0].Level != tt.level {
				t.Fatalf("log %v, want one line at %v", entries, tt.level)
			}
			if got := entries[0].ContextMap()["capped"]; tt.header != "" && got != tt.header || tt.header == "" && got != nil {
				t.Fatalf("capped field %v, want %q", got, tt.header)
			}
			for _, c := range tt.caps {
				if n := testutil.ToFloat64(g.cfg.Metrics.DegradedCounter("applications.list", string(c))); n != 1 {
					t.Fatalf("v2bridge_degraded_total{cap=%q} = %v, want 1", c, n)
				}
			}
		})
	}
}
