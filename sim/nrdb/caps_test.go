package nrdb

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// capRows: facet "old" has three events, the oldest; "new" one event, the newest;
// "mid" two events in between. Titles sort "z" > "m" > "a" against time, and the
// source yields the newest first (so scan order ranks nothing).
func capRows() sliceSource {
	ev := func(min int, id, title string) MapRow {
		return MapRow{Type: "E", At: t0.Add(time.Duration(min) * time.Minute), Attrs: map[string]any{"id": id, "title": title}}
	}
	return sliceSource{ev(5, "new", "a"), ev(3, "mid", "m"), ev(4, "mid", "m"), ev(0, "old", "z"), ev(1, "old", "z"), ev(2, "old", "z")}
}

// Facets are picked and ordered by the first SELECT item when it is min, max,
// average or count, else by how many events each facet has (docs-website
// src/content/docs/nrql/nrql-syntax-clauses-functions.mdx, #sel-facet), then cut at
// LIMIT (at most 5000).
func TestFacetRankAndLimit(t *testing.T) {
	rng := fmt.Sprintf(" SINCE %d UNTIL %d", t0.UnixMilli(), t0.Add(time.Hour).UnixMilli())
	tests := []struct {
		name, query string
		want        []string
	}{
		{"max(timestamp) first: newest first", "SELECT max(timestamp) FROM E FACET id LIMIT MAX", []string{"new", "mid", "old"}},
		{"min(timestamp) first: by the minimum, descending", "SELECT min(timestamp) FROM E FACET id LIMIT MAX", []string{"new", "mid", "old"}},
		{"count first", "SELECT count(*) FROM E FACET id LIMIT MAX", []string{"old", "mid", "new"}},
		{"latest(title) first: by frequency, not by the string", "SELECT latest(title), max(timestamp) FROM E FACET id LIMIT MAX", []string{"old", "mid", "new"}},
		{"uniqueCount first: by frequency", "SELECT uniqueCount(title), max(timestamp) FROM E FACET id LIMIT MAX", []string{"old", "mid", "new"}},
		{"filter() first: by frequency", "SELECT filter(max(timestamp), WHERE id = 'new') FROM E FACET id LIMIT MAX", []string{"old", "mid", "new"}},
		{"LIMIT keeps the top of the ranking", "SELECT max(timestamp) FROM E FACET id LIMIT 2", []string{"new", "mid"}},
		{"LIMIT by frequency drops the newest", "SELECT latest(title) FROM E FACET id LIMIT 2", []string{"old", "mid"}},
		{"default LIMIT is 10", "SELECT max(timestamp) FROM E FACET id", []string{"new", "mid", "old"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, _, _, err := NewRunner(capRows()).RunNRQL(context.Background(), nil, tt.query+rng, t0.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, fmt.Sprint(r["facet"]))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("facets %v, want %v", got, tt.want)
			}
		})
	}
}

// LIMIT above 5000 is taken as 5000 ("The maximum allowed value for the LIMIT clause is
// 5,000", #sel-limit), for facets and for rows; uniques() keeps at most 10000 values
// (#func-uniques).
func TestLimitCaps(t *testing.T) {
	var src sliceSource
	for i := 0; i < MaxFacetLimit+10; i++ {
		src = append(src, MapRow{Type: "E", At: t0.Add(time.Duration(i) * time.Millisecond), Attrs: map[string]any{"id": fmt.Sprint(i)}})
	}
	for i := 0; i < MaxUniques+10; i++ {
		src = append(src, MapRow{Type: "U", At: t0.Add(time.Duration(i) * time.Millisecond), Attrs: map[string]any{"name": fmt.Sprint(i)}})
	}
	rng := fmt.Sprintf(" SINCE %d UNTIL %d", t0.UnixMilli(), t0.Add(time.Hour).UnixMilli())
	tests := []struct {
		name, query string
		rows, uniq  int
	}{
		{"facets LIMIT MAX", "SELECT count(*) FROM E FACET id LIMIT MAX", MaxFacetLimit, 0},
		{"facets LIMIT 9000", "SELECT count(*) FROM E FACET id LIMIT 9000", MaxFacetLimit, 0},
		{"facets LIMIT 7", "SELECT count(*) FROM E FACET id LIMIT 7", 7, 0},
		{"rows LIMIT 9000", "SELECT id FROM E LIMIT 9000", MaxFacetLimit, 0},
		{"uniques default", "SELECT uniques(name) FROM U", 1, DefaultUniques},
		{"uniques 20000", "SELECT uniques(name, 20000) FROM U", 1, MaxUniques},
		{"uniques 10", "SELECT uniques(name, 10) FROM U", 1, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, _, _, err := NewRunner(src).RunNRQL(context.Background(), nil, tt.query+rng, t0.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != tt.rows {
				t.Fatalf("%d rows, want %d", len(rows), tt.rows)
			}
			if tt.uniq > 0 {
				if n := len(rows[0]["uniques.name"].([]any)); n != tt.uniq {
					t.Fatalf("%d uniques, want %d", n, tt.uniq)
				}
			}
		})
	}
}
