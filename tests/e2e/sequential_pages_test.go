package e2e

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

// Link paging through an account of 5,000 applications, more than a list page's
// account-wide inventory reads (translate accountInventoryApps), so each page reads its
// own: once the key's first request has looked up its account and found it large, page
// 1 costs 2 NerdGraph round trips (its search, then its inventory with page 2's search)
// and every page after it 1 (its inventory with the next page's search), counted at
// the simulator. Each page is byte for byte what the same page read on its own is (the
// pages read again in reverse order, where none was read ahead of its request: 2 round
// trips each).
func TestSequentialPagesOneRoundTripEach(t *testing.T) {
	l, err := sim.ParseScale("apps=5000,hosts=1")
	if err != nil {
		t.Fatal(err)
	}
	e := newCapsEnv(t, l)
	if r := e.get(t, "/v2/applications.json", keyLarge); r.status != 200 { // warm-up
		t.Fatalf("warm-up: %d %s", r.status, r.body)
	}
	type page struct {
		calls int64
		body  []byte
	}
	get := func(url string) (page, response) {
		t.Helper()
		before := e.sim.Requests()
		r := e.get(t, url, keyLarge)
		if r.status != 200 || r.header.Get("X-V2bridge-Degraded") != "" {
			t.Fatalf("GET %s: %d, degraded %q: %.300s", url, r.status, r.header.Get("X-V2bridge-Degraded"), r.body)
		}
		if n := strings.Count(string(r.body), `"health_status":`); n != 200 {
			t.Fatalf("GET %s: %d applications, want 200", url, n)
		}
		return page{calls: e.sim.Requests() - before, body: r.body}, r
	}

	var linked []page
	var total int64
	for next := "/v2/applications.json"; len(linked) < 10; {
		p, r := get(next)
		linked = append(linked, p)
		total += p.calls
		want := int64(1)
		if len(linked) == 1 {
			want = 2
		}
		if p.calls != want {
			t.Errorf("page %d by Link: %d round trips, want %d", len(linked), p.calls, want)
		}
		if next = links(t, r.header)["next"]; next == "" {
			t.Fatalf("page %d has no rel=next", len(linked))
		}
	}
	if total != 2+9 {
		t.Errorf("pages 1 to 10 by Link: %d round trips, want 11", total)
	}

	for n := 10; n >= 1; n-- {
		p, _ := get("/v2/applications.json?page=" + strconv.Itoa(n))
		if p.calls != 2 {
			t.Errorf("page %d read alone: %d round trips, want 2", n, p.calls)
		}
		if !bytes.Equal(p.body, linked[n-1].body) {
			t.Errorf("page %d by Link differs from page %d read alone", n, n)
		}
	}
}
