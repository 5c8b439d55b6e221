package translate

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Tests written for the survivors of the translate tree's mutation run (issue 22,
// fourth pass at 5855b87): New's defaults (translate.go), optionalCache, and the auth
// TTL of 0 in keyAuth.fresh (cache.go). Further survivors are killed in
// cachebytes_mut_test.go, attempts_mut_test.go, health_mut_test.go,
// metrics_mut_test.go, nrql_mut_test.go, entitylegacy_mut_test.go and
// keytransactions_mut_test.go.
//
// Equivalent survivors (package translate), besides those already waived in
// tests/MUTATION.md:
//   - deployments.go:619:55 CONDITIONALS_BOUNDARY (`>= DeploymentMemory` → `>` in
//     remember): the waived :592:21 mutant, moved. The mutant keeps deployments exactly
//     DeploymentMemory old; recalled drops them with `<`, and when the
//     RememberedDeployments bound then drops them instead, rd.dropped is set to their
//     time, already DeploymentMemory old, so `cut` stays false; the same final list
//     results in every other case. (Only a recall whose clock reads earlier than that
//     of the remember before it could still see the kept deployment: the clock is
//     taken as monotonic, as in the waiver of :592.)

// Mutants translate.go:94-:138 (New's defaults): a zero or negative TTL takes its
// default (5 min cursors, 1 min lists, 10 min accounts, 10 min metric names), a zero
// metric-data or entity TTL takes its default and a negative one switches the cache
// off, a zero MaxCacheBytes is DefaultCacheMaxBytes and a negative one no bound, a nil
// Warn is a no-op and a set one is kept.
func TestNewDefaults(t *testing.T) {
	type want struct {
		cursors, lists, accounts, names time.Duration
		metrics, entities               time.Duration // -1: no cache
		maxBytes                        int64
	}
	for _, tt := range []struct {
		name string
		opts Options
		want want
	}{
		{"zero", Options{}, want{5 * time.Minute, time.Minute, 10 * time.Minute, 10 * time.Minute, MetricDataTTL, EntityTTL, DefaultCacheMaxBytes}},
		{"negative", Options{CursorTTL: -1, ListTTL: -1, AccountTTL: -1, MetricDataTTL: -1, EntityTTL: -1, MaxCacheBytes: -1},
			want{5 * time.Minute, time.Minute, 10 * time.Minute, 10 * time.Minute, -1, -1, 0}},
		{"set", Options{CursorTTL: 7 * time.Second, ListTTL: 8 * time.Second, AccountTTL: 9 * time.Second, MetricDataTTL: 11 * time.Second,
			EntityTTL: 12 * time.Second, MaxCacheBytes: 1234},
			want{7 * time.Second, 8 * time.Second, 9 * time.Second, 10 * time.Minute, 11 * time.Second, 12 * time.Second, 1234}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(nil, tt.opts)
			ttl := func(c *Cache) time.Duration {
				if c == nil {
					return -1
				}
				return c.ttl
			}
			got := want{ttl(tr.cursors), ttl(tr.lists), ttl(tr.accounts), ttl(tr.names), ttl(tr.metrics), ttl(tr.entities), tr.cursors.maxBytes}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for _, c := range tr.caches {
				if c != nil && c.maxBytes != tt.want.maxBytes {
					t.Errorf("cache %s: maxBytes %d, want %d", c.name, c.maxBytes, tt.want.maxBytes)
				}
			}
			tr.warn(context.Background(), "enrichment", errors.New("x")) // a nil Warn must be a no-op, not a nil call
		})
	}
	var heard []string
	tr := New(nil, Options{Warn: func(_ context.Context, what string, err error) { heard = append(heard, what+": "+err.Error()) }})
	tr.warn(context.Background(), "links", errors.New("down"))
	if len(heard) != 1 || heard[0] != "links: down" {
		t.Fatalf("the caller's Warn heard %q", heard)
	}
}

// translate.go:204 CONDITIONALS_BOUNDARY (`ttl < 0` → `<= 0` in optionalCache): only a
// negative TTL switches the cache off; a TTL of 0 is a cache (go-cache: no expiry).
func TestOptionalCache(t *testing.T) {
	o := Options{MaxEntries: 3}
	if c := optionalCache("x", -time.Second, o); c != nil {
		t.Fatal("a negative ttl gave a cache")
	}
	for _, ttl := range []time.Duration{0, time.Second} {
		c := optionalCache("x", ttl, o)
		if c == nil || c.ttl != ttl || c.max != 3 || c.name != "x" {
			t.Fatalf("ttl %v: cache %+v", ttl, c)
		}
	}
}
