package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

type violationsBody struct {
	Violations []struct {
		ID       int64  `json:"id"`
		Priority string `json:"priority"`
		OpenedAt int64  `json:"opened_at"`
		ClosedAt *int64 `json:"closed_at"`
		Duration int64  `json:"duration"`
		Label    string `json:"label"`
		Entity   struct {
			Product, Type, Name string
			ID                  int64
		}
		Links struct {
			PolicyID int64 `json:"policy_id"`
		} `json:"links"`
	} `json:"violations"`
}

// Violations paging follows rel="next" to the end with no rel="last" anywhere.
func TestViolationsPaging(t *testing.T) {
	e := newEnv(t)
	seen := map[int64]bool{}
	next := "/v2/alerts_violations.json?start_date=2026-11-01T00:00:00Z"
	pages := 0
	var last int64 = 1 << 62
	for next != "" {
		r := e.get(t, next, key1)
		if strings.Contains(r.header.Get("Link"), `rel="last"`) {
			t.Fatalf("rel=\"last\" on page %d: %s", pages+1, r.header.Get("Link"))
		}
		var b violationsBody
		if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		for _, v := range b.Violations {
			if seen[v.ID] {
				t.Fatalf("violation %d twice", v.ID)
			}
			seen[v.ID] = true
			if v.OpenedAt > last {
				t.Fatal("not newest first")
			}
			last = v.OpenedAt
			if v.Priority != "Critical" && v.Priority != "Warning" || v.Entity.Product != "Apm" || v.Entity.Type != "Application" ||
				v.Entity.ID == 0 || v.Links.PolicyID == 0 || v.Duration < 0 {
				t.Fatalf("violation %+v", v)
			}
		}
		pages++
		next = links(t, r.header)["next"]
	}
	if pages != 2 || len(seen) != 260 {
		t.Fatalf("%d pages, %d violations; want 2 pages of the demo's 260", pages, len(seen))
	}
	var open violationsBody
	_ = json.Unmarshal(e.get(t, "/v2/alerts_violations.json?only_open=true&start_date=2026-11-01T00:00:00Z", key1).body, &open)
	if len(open.Violations) == 0 {
		t.Fatal("no open violations")
	}
	for _, v := range open.Violations {
		if v.ClosedAt != nil {
			t.Fatalf("only_open returned a closed violation %d", v.ID)
		}
	}
}

// A violation has REST's recorded shape (ambitioninc/newrelic-api
// newrelic_api/tests/alert_violations_tests.py): entity product, type, group_id, id and
// name, group_id null (it has no NerdGraph source, as the route's note says), and
// links policy_id and condition_id.
func TestViolationEntityKeepsGroupIDAsNull(t *testing.T) {
	e := newEnv(t)
	r := e.get(t, "/v2/alerts_violations.json?start_date=2026-11-01T00:00:00Z", key1)
	var b struct {
		Violations []struct {
			Entity json.RawMessage `json:"entity"`
			Links  json.RawMessage `json:"links"`
		} `json:"violations"`
	}
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 || len(b.Violations) == 0 {
		t.Fatalf("%d %.300s", r.status, r.body)
	}
	for _, v := range b.Violations {
		var entity, links map[string]json.RawMessage
		if json.Unmarshal(v.Entity, &entity) != nil || json.Unmarshal(v.Links, &links) != nil {
			t.Fatalf("entity %s links %s", v.Entity, v.Links)
		}
		g, ok := entity["group_id"]
		if !ok || string(g) != "null" || len(entity) != 5 || entity["product"] == nil || entity["type"] == nil ||
			entity["id"] == nil || entity["name"] == nil {
			t.Fatalf("entity %s: want product, type, group_id (null), id, name", v.Entity)
		}
		if len(links) != 2 || links["policy_id"] == nil || links["condition_id"] == nil {
			t.Fatalf("links %s: want policy_id and condition_id", v.Links)
		}
	}
	if !strings.Contains(noteOf(t, "alerts_violations.list"), "`entity.group_id` has no source and is null") {
		t.Error("the route's note does not say group_id is null")
	}
}

// noteOf is a route's fidelity note.
func noteOf(t *testing.T, route string) string {
	t.Helper()
	for _, r := range gateway.Routes() {
		if r.Name == route {
			return r.Note
		}
	}
	t.Fatalf("no route %s", route)
	return ""
}
