package state

import (
	"testing"
	"time"
)

// With a clock, an entry is served until its lifetime (the cache's, or its own) has
// passed on that clock, with or without a byte bound, and a stamp of it no longer
// holds then; without one the wall clock alone decides.
func TestCacheEntriesExpireOnTheClock(t *testing.T) {
	for _, bytes := range []int64{0, 1 << 20} {
		at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
		c := NewCache("t", 30*time.Second, 10, nil)
		if bytes > 0 {
			c.LimitBytes(bytes)
		}
		c.UseClock(func() time.Time { return at })
		c.Set("k|1|a", 1)
		c.SetLocalFor("k|1|b", 2, 5*time.Second)
		_, stamp, _ := c.GetStamped("k|1|a")
		steps := []struct {
			advance time.Duration
			a, b    bool
		}{
			{5*time.Second - time.Nanosecond, true, true},
			{time.Nanosecond, true, false},
			{25*time.Second - time.Nanosecond, true, false},
			{time.Nanosecond, false, false},
		}
		for i, s := range steps {
			at = at.Add(s.advance)
			_, a := c.Get("k|1|a")
			_, b := c.Get("k|1|b")
			if a != s.a || b != s.b || c.Holds("k|1|a", stamp) != s.a {
				t.Errorf("bytes %d, step %d: a %v (holds %v), b %v; want %v, %v", bytes, i, a, c.Holds("k|1|a", stamp), b, s.a, s.b)
			}
		}
	}
	c := NewCache("t", 30*time.Second, 10, nil)
	c.Set("k|1|a", 1)
	if _, ok := c.Get("k|1|a"); !ok {
		t.Error("without a clock the entry is not served")
	}
}
