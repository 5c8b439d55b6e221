package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"

	"github.com/v2bridge/v2bridge/sim"
)

// BenchmarkScalePage is a scale scenario's warm request on a generated account of the
// demo's size and of 50,000 applications, the simulator's answers replayed at once
// (replayer): the gateway's own cost of the page, in one process, for a profile.
func BenchmarkScalePage(b *testing.B) {
	for _, spec := range []string{"apps=264,hosts=3,names=5000", "apps=50000,hosts=3,names=5000"} {
		l, s, err := largeSim(spec)
		if err != nil {
			b.Fatal(err)
		}
		rp := newReplayer(s)
		up := httptest.NewServer(rp)
		h := newGatewayWith(up.URL+sim.Path, false, 10*time.Minute, zapcore.InfoLevel)
		for _, sc := range scaleScenarios {
			if sc.Name != "list page 1" && sc.Name != "list middle page" && sc.Name != "filter[ids] of 200" {
				continue
			}
			b.Run(fmt.Sprintf("%s/apps=%d", sc.Name, l.Apps), func(b *testing.B) {
				req := httptest.NewRequest("GET", sc.path(l), nil)
				req.Header.Set("X-Api-Key", l.Key)
				req.Header.Set("X-Account-ID", strconv.Itoa(l.ID))
				// The first ever learns the account's size (the simulator's account-wide
				// inventory of 50,000 applications can take longer than a request may:
				// a 504, then the next attempt); then warm.
				for ok, attempt := 0, 0; ok < 2; attempt++ {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					switch {
					case rec.Code == http.StatusOK:
						ok++
					case attempt >= 3:
						b.Fatalf("%d %s", rec.Code, rec.Body.String())
					}
				}
				rp.on.Store(true)
				defer rp.on.Store(false)
				misses := rp.misses.Load()
				b.ReportAllocs()
				for b.Loop() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("%d", rec.Code)
					}
				}
				if m := rp.misses.Load() - misses; m > 0 {
					b.Fatalf("%d requests had no recorded answer", m)
				}
			})
		}
		up.Close()
	}
}
