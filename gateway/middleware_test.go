package gateway

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

func TestRequestID(t *testing.T) {
	generated := regexp.MustCompile(`^[0-9a-f]{16}$`)
	tests := []struct {
		name, given string
		keep        bool
	}{
		{"plain id kept", "deploy-42_a.b", true},
		{"64 characters kept", strings.Repeat("a", 64), true},
		{"none given", "", false},
		{"65 characters replaced", strings.Repeat("a", 65), false},
		{"header injection replaced", "x\r\nSet-Cookie: a=b", false},
		{"spaces replaced", "a b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := requestID(tt.given)
			if tt.keep {
				if got != tt.given {
					t.Fatalf("requestID(%q) = %q, want it kept", tt.given, got)
				}
				return
			}
			if !generated.MatchString(got) {
				t.Fatalf("requestID(%q) = %q, want 16 lowercase hex digits", tt.given, got)
			}
		})
	}
	seen := map[string]bool{}
	for range 1000 {
		id := requestID("")
		if seen[id] {
			t.Fatalf("generated id %q twice in 1000", id)
		}
		seen[id] = true
	}
}

func TestAccessLogLevels(t *testing.T) {
	tests := []struct {
		name     string
		min      zapcore.Level // the logger's level
		status   int
		internal error
		want     zapcore.Level // -1: no line
	}{
		{"success at info", zapcore.InfoLevel, 200, nil, zapcore.InfoLevel},
		{"client error at info", zapcore.InfoLevel, 404, nil, zapcore.InfoLevel},
		{"upstream failure at warn", zapcore.InfoLevel, 503, nil, zapcore.WarnLevel},
		{"internal error at error", zapcore.InfoLevel, 500, errors.New("boom"), zapcore.ErrorLevel},
		{"success below the level", zapcore.WarnLevel, 200, nil, -1},
		{"failure at the level", zapcore.WarnLevel, 502, nil, zapcore.WarnLevel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core, logs := observer.New(tt.min)
			g := New(Config{}, nil, zap.New(core))
			r := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
			st := &reqState{id: "rid", route: "applications.list", fidelity: Approximate, caller: "abcd",
				account: 1000001, accountSource: "single", internal: tt.internal}
			st.sw.status = tt.status
			for range 2 { // the second line reuses the pooled field slice
				g.accessLog(r, &st.sw, st)
			}
			entries := logs.All()
			if tt.want == -1 {
				if len(entries) != 0 {
					t.Fatalf("logged %d lines below the level", len(entries))
				}
				return
			}
			if len(entries) != 2 {
				t.Fatalf("logged %d lines, want 2", len(entries))
			}
			for _, e := range entries {
				f := e.ContextMap()
				if e.Level != tt.want || f["status"] != int64(tt.status) || f["route"] != "applications.list" ||
					f["request_id"] != "rid" || f["account"] != int64(1000001) || f["account_source"] != "single" {
					t.Fatalf("line = %v %v", e.Level, f)
				}
				if _, has := f["error"]; has != (tt.internal != nil) {
					t.Fatalf("error field present = %v, want %v", has, tt.internal != nil)
				}
			}
		})
	}
}
