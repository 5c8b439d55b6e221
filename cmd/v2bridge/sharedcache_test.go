package main

import (
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"go.uber.org/zap"
)

// store.shared_cache switches the store's shared cache on (newGateway then gives it to
// the translator); off by default.
func TestStoreSharedCacheOpen(t *testing.T) {
	m := miniredis.RunT(t)
	for _, on := range []bool{false, true} {
		s := defaultConfig().Store
		s.URL, s.SharedCache = "redis://"+m.Addr(), on
		if err := s.check(func(string) string { return "" }); err != nil {
			t.Fatal(err)
		}
		st, err := s.open(func(string) string { return "" }, zap.NewNop(), 10*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if st.SharesCache() != on {
			t.Fatalf("shared_cache %v: store shares the cache %v", on, st.SharesCache())
		}
		_ = st.Close()
	}
}

// The store's accounting window is the longest TTL of a shared entry, cursors
// (cache.cursor_ttl) and name matches (cache.list_ttl) included: an entry that
// outlived the window would escape the byte budget.
func TestSharedWindow(t *testing.T) {
	base := defaultConfig().Cache
	for _, tc := range []struct {
		name string
		set  func(*cacheConfig)
		want time.Duration
	}{
		{"defaults: the account list's 10m", func(*cacheConfig) {}, 10 * time.Minute},
		{"cursors longest", func(c *cacheConfig) { c.CursorTTL = 30 * time.Minute }, 30 * time.Minute},
		{"shows longest", func(c *cacheConfig) { c.EntityTTL = 20 * time.Minute }, 20 * time.Minute},
		{"metric data longest", func(c *cacheConfig) { c.MetricDataTTL = 15 * time.Minute }, 15 * time.Minute},
		{"accounts longest", func(c *cacheConfig) { c.AccountTTL = time.Hour }, time.Hour},
		{"name matches longest (list_ttl)", func(c *cacheConfig) { c.ListTTL = 2 * time.Hour }, 2 * time.Hour},
		{"metric names do not count (not shared)", func(c *cacheConfig) { c.MaxEntries = 1 }, 10 * time.Minute},
	} {
		c := base
		tc.set(&c)
		if got := c.sharedWindow(); got != tc.want {
			t.Errorf("%s: window %s, want %s", tc.name, got, tc.want)
		}
	}
}
