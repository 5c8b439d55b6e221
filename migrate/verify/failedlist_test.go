package verify

import (
	"bytes"
	"context"
	"fmt"
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

// Progress written to a file is one line at the first request and one each time the
// run passes a further tenth of the requests known then, never the same tenth twice.
func TestRunProgressInAFileOneLineATenth(t *testing.T) {
	rest := &fakeSide{answers: readPlan(), status: map[string]int{}}
	rs := httptest.NewServer(rest)
	defer rs.Close()
	var progress bytes.Buffer
	_, err := Run(context.Background(), Config{REST: Side{Base: rs.URL}, Translation: Side{Base: rs.URL}, Sample: 2, PerMinute: 1 << 30,
		Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(progress.String(), "\n"), "\n")
	last := -1
	for i, l := range lines {
		var done, total int
		if _, err := fmt.Sscanf(l, "verify: %d of %d requests", &done, &total); err != nil || (i == 0) != (done == 1) {
			t.Fatalf("line %q (%v)", l, err)
		}
		if tenth := 10 * done / total; tenth <= last {
			t.Errorf("tenth %d again or back: %q\n%s", tenth, l, progress.String())
		} else {
			last = tenth
		}
	}
}
