package verify

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// When the REST side refuses its application list, the error gives that answer's
// cause, not the cause of the reads after it, and starts on a line of its own below a
// terminal's progress bar.
func TestRunFailsWithTheApplicationListsCause(t *testing.T) {
	side := httptest.NewServer(&fakeSide{answers: map[string]string{}, status: map[string]int{"/v2/applications.json": http.StatusUnauthorized}})
	defer side.Close()
	var progress bytes.Buffer
	_, err := Run(context.Background(), Config{REST: Side{Base: side.URL}, Translation: Side{Base: side.URL}, PerMinute: 1 << 30,
		Progress: &progress, ProgressTerminal: true})
	if err == nil || !strings.Contains(err.Error(), "refused the key (401)") || strings.Contains(err.Error(), "404") {
		t.Errorf("error %v, want the application list's 401 (the later reads answered 404)", err)
	}
	if p := progress.String(); !strings.Contains(p, "\r[") || !strings.HasSuffix(p, "\n") {
		t.Errorf("progress %q does not end its line before the error", p)
	}
}

// A difference is declared by the longest name the note gives of its path's keys; of
// names as long, the one nearer the root.
func TestDeclaredByPrefersLongestThenOutermostName(t *testing.T) {
	tests := []struct{ note, path, want string }{
		{"`settings` and `settings.app_apdex_threshold`", "$.applications[id=1].settings.app_apdex_threshold", "settings.app_apdex_threshold"},
		{"`links` or `hosts`", "$.links.hosts[0]", "links"},
		{"`hosts` or `links`", "$.links.hosts", "links"},
		{"`name`", "$.applications[0].settings", ""},
	}
	for _, tt := range tests {
		if got := declaredBy(tt.note, tt.path); got != tt.want {
			t.Errorf("declaredBy(%q, %q) = %q, want %q", tt.note, tt.path, got, tt.want)
		}
	}
}
