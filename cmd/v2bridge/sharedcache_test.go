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
