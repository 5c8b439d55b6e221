package e2e

import (
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// The CSV report never hands a spreadsheet a formula: User-Agents
// starting with = + - @ tab or CR land as text.
func TestReportCSVNeutralisesFormulas(t *testing.T) {
	h := harness.StartWith(t, harness.Options{Migrate: migrate.Config{ReportToken: "tok"}})
	srv := h.GW.Handler()
	agents := []string{`=HYPERLINK("http://evil.example","x")`, "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "=cmd|' /C calc'!A0"}
	for _, ua := range agents {
		req := httptest.NewRequest(http.MethodGet, "/v2/applications.json", nil)
		req.Header.Set("X-Api-Key", key1)
		req.Header.Set("User-Agent", ua)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("%q: %d", ua, rec.Code)
		}
	}
	req := httptest.NewRequest(http.MethodGet, "/v2bridge/report.csv", nil)
	req.Header.Set("Authorization", "Bearer tok")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	records, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil {
		t.Fatalf("report.csv: %v", err)
	}
	if len(records) < 2 {
		t.Fatalf("report.csv has no rows: %s", rec.Body.String())
	}
	neutralised := 0
	for _, row := range records[1:] {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q would run as a formula", cell)
			}
		}
		if strings.HasPrefix(row[1], "'") {
			neutralised++
		}
	}
	if neutralised == 0 {
		t.Errorf("no User-Agent cell was kept (neutralised) in %q", records)
	}
}
