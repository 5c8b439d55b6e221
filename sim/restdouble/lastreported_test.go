package restdouble

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/sim"
)

// TestLastReportedIsTheNewestIngestedMinute: an application's last_reported_at is the
// newest minute of its metric data the simulator's NRQL holds at the same clock
// (max(timestamp)), so a minute counts only once an instance delivered it: from the
// minute's end, before any arrived, to 105 s later, when all have.
func TestLastReportedIsTheNewestIngestedMinute(t *testing.T) {
	data, err := sim.ParseData(configs.DemoData())
	if err != nil {
		t.Fatal(err)
	}
	const appID = 314221522
	for _, after := range []time.Duration{0, 20 * time.Second, 50 * time.Second, 80 * time.Second, 105 * time.Second} {
		now := time.Date(2026, 5, 1, 12, 30, 0, 0, time.UTC).Add(after)
		clock := func() time.Time { return now }
		rows, _, _, err := sim.DemoMetrics(data, clock).RunNRQL(context.Background(), []int{1000001},
			fmt.Sprintf("SELECT max(timestamp) FROM Metric WHERE appId = %d SINCE 30 minutes ago", appID), now)
		if err != nil || len(rows) != 1 {
			t.Fatalf("NRQL: %v %v", rows, err)
		}
		ms, _ := rows[0]["max.timestamp"].(float64)
		want := time.UnixMilli(int64(ms)).UTC().Format("2006-01-02T15:04:05+00:00")

		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/v2/applications/%d.json", appID), nil)
		req.Header.Set("X-Api-Key", "NRAK-DEMO-ACCOUNT-1")
		New(data, Options{Now: clock}).ServeHTTP(rec, req)
		var body struct {
			Application struct {
				LastReportedAt string `json:"last_reported_at"`
			} `json:"application"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusOK {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		if got := body.Application.LastReportedAt; got != want {
			t.Errorf("at +%v: last_reported_at %s, want %s (the NRQL's newest minute)", after, got, want)
		}
	}
}
