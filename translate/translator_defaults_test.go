package translate

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/state"
)

// New's defaults: a zero or negative TTL takes its default (5 min cursors, 1 min lists,
// 10 min accounts, 10 min metric names), a zero metric-data or entity TTL takes its
// default and a negative one switches the cache off, a zero MaxCacheBytes is
// DefaultCacheMaxBytes and a negative one no bound, a nil Warn is a no-op and a set one
// is kept.
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
		{"zero", Options{}, want{5 * time.Minute, time.Minute, 10 * time.Minute, 10 * time.Minute, MetricDataTTL, EntityTTL, state.DefaultCacheMaxBytes}},
		{"negative", Options{CursorTTL: -1, ListTTL: -1, AccountTTL: -1, MetricDataTTL: -1, EntityTTL: -1, MaxCacheBytes: -1},
			want{5 * time.Minute, time.Minute, 10 * time.Minute, 10 * time.Minute, -1, -1, 0}},
		{"set", Options{CursorTTL: 7 * time.Second, ListTTL: 8 * time.Second, AccountTTL: 9 * time.Second, MetricDataTTL: 11 * time.Second,
			EntityTTL: 12 * time.Second, MaxCacheBytes: 1234},
			want{7 * time.Second, 8 * time.Second, 9 * time.Second, 10 * time.Minute, 11 * time.Second, 12 * time.Second, 1234}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(nil, tt.opts)
			ttl := func(c *state.Cache) time.Duration {
				if c == nil {
					return -1
				}
				return c.TTL()
			}
			got := want{ttl(tr.st.Cursors), ttl(tr.st.Lists), ttl(tr.st.Accounts), ttl(tr.st.Names), ttl(tr.st.Metrics), ttl(tr.st.Entities), tr.st.Cursors.MaxBytes()}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for _, c := range tr.st.Caches() {
				if c != nil && c.MaxBytes() != tt.want.maxBytes {
					t.Errorf("cache %s: maxBytes %d, want %d", c.Name(), c.MaxBytes(), tt.want.maxBytes)
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
