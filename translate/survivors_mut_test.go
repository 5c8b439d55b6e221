package translate

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tests for mutants that survived the "before" run of `make mutate PKG=./translate/...`
// (issue 22; tests/MUTATION.md lists that run's survivors).
//
// Equivalent survivors (waived in tests/MUTATION.md; no behaviour tells them apart):
//   - applications.go:640 CONDITIONALS_BOUNDARY (len(f) < 2 → <= 2 in rawFacet.str): a
//     2-byte facet is `""` or does not start with a quote; "" either way.
//   - caller.go:41:22 and :43:15 ARITHMETIC_BASE: cacheKeyAt's b.Grow hint stays >= 0 for
//     every kind (literals under 45 bytes), so only the initial capacity changes.
//   - applications.go:119 and :207 CONDITIONALS_BOUNDARY (last < 1 → <= 1): when last is
//     1 the branch sets it to 1.
//   - deployments.go:585 CONDITIONALS_BOUNDARY: see TestDeploymentMemoryMut.
//   - hosts.go:167 and :168 CONDITIONALS_BOUNDARY (sort comparators < → <=): hosts and
//     instances are unique by the compared key; hosts.go:179 (r.Page < 1 → <= 1): sets
//     page 1 to 1.

// hosts.go:39 and :54 ARITHMETIC_BASE / INVERT_NEGATIVES: the summaries count the last
// HostSummaryWindow (10 minutes) inside an InventoryWindow (1 hour) read.
func TestHostStatsWindowsMut(t *testing.T) {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	q, err := hostStatsNRQL(7, "host", until)
	if err != nil {
		t.Fatal(err)
	}
	ten := "timestamp >= " + strconv.FormatInt(until.Add(-10*time.Minute).UnixMilli(), 10) + ")"
	rng := "SINCE " + strconv.FormatInt(until.Add(-time.Hour).UnixMilli(), 10) + " UNTIL " + strconv.FormatInt(until.UnixMilli(), 10)
	if strings.Count(q, ten) != 8 || !strings.Contains(q, rng) || !strings.Contains(q, "appId = 7 AND "+UnscopedNRQL) || !strings.Contains(q, " FACET host ") {
		t.Fatalf("query %s", q)
	}
}

// cache.go:55 CONDITIONALS_NEGATION (ok && c.auth != nil): a cached answer is not served
// to a key NerdGraph has not accepted within the auth TTL.
func TestCacheGetChecksKeyMut(t *testing.T) {
	tr := New(nil, Options{AuthTTL: time.Second})
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr.auth.now = func() time.Time { return now }
	k := HashKey("k")
	tr.auth.accepted(k)
	key := Caller{KeyHash: k, AccountID: 1}.cacheKey("x")
	tr.lists.Set(key, 1)
	if _, ok := tr.lists.Get(key); !ok {
		t.Fatal("fresh key: miss")
	}
	now = now.Add(time.Second + time.Nanosecond)
	if _, ok := tr.lists.Get(key); ok {
		t.Fatal("a key not accepted within the auth TTL was served from the cache")
	}
}

// cache.go:124 ARITHMETIC_BASE / INVERT_NEGATIVES (the write count's mask 1<<62-1) and
// caller.go:53 CONDITIONALS_BOUNDARY (gen >= 0): every write count gives its own key,
// the first one included (kind@0, never the unscoped kind).
func TestWriteScopedEveryCountMut(t *testing.T) {
	tr := New(nil, Options{})
	c := Caller{KeyHash: "h", AccountID: 1}
	seen := map[string]bool{c.cacheKey("application", "9"): true}
	for i := 0; i < 5; i++ {
		k := tr.writeScoped(c, "application", "9")
		if seen[k] || !strings.Contains(k, "|application@"+strconv.Itoa(i)+"|") {
			t.Fatalf("after %d writes: key %q (seen before: %v)", i, k, seen[k])
		}
		seen[k] = true
		tr.wroteAccount(c)
	}
}

// applications.go:643 CONDITIONALS_BOUNDARY (IndexByte(inner, '\\') < 0): a host name
// whose first character is escaped in the JSON answer is decoded, not kept escaped.
func TestInventoryEscapedHostMut(t *testing.T) {
	tr := New(nil, Options{})
	inv, read := parseInventory(context.Background(), tr, []byte(`[{"facet":7,"hosts":["\u00e9-host"],"agents":[3],"lastSeen":1.7e12},{"facet":7,"hosts":[""],"agents":[4],"lastSeen":1}]`))
	if read.rows != 2 || inv[7] == nil || strings.Join(inv[7].hosts, ",") != "é-host" || len(inv[7].instances) != 2 {
		t.Fatalf("%d rows, inventory %+v", read.rows, inv[7])
	}
}

// keytransactions.go:186 ARITHMETIC_BASE / INVERT_NEGATIVES: a key transaction's
// summary reads the KeyTransactionWindow (10 minutes) before until.
func TestKeyTxStatsWindowMut(t *testing.T) {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	q, err := keyTxStatsNRQL([]keyTx{{id: 1, appID: 7, metricName: "WebTransaction/Controller/x"}}, until)
	if err != nil {
		t.Fatal(err)
	}
	want := "SINCE " + strconv.FormatInt(until.Add(-10*time.Minute).UnixMilli(), 10) + " UNTIL " + strconv.FormatInt(until.UnixMilli(), 10)
	if !strings.Contains(q, want) || !strings.Contains(q, "appId IN (7)") {
		t.Fatalf("query %s, want %s", q, want)
	}
}

// cache.go:80 CONDITIONALS_BOUNDARY (maxBytes > 0 → >= 0): a cache without a byte bound
// stores entries; cachebytes.go:31, :39 and :43 CONDITIONALS_BOUNDARY: an entry exactly
// the bound is stored, entries that exactly fill the bound are all kept, and a new one
// evicts only as many as it needs.
func TestCacheByteBoundEdgesMut(t *testing.T) {
	tr := New(nil, Options{MaxCacheBytes: -1})
	tr.lists.Set("k|1|a", 1)
	if _, ok := tr.lists.Get("k|1|a"); !ok {
		t.Fatal("a cache without a byte bound stored nothing")
	}
	size := func(key string, v any) int64 {
		c := NewCache("probe", time.Hour, 10, nil)
		c.maxBytes = 1 << 40
		c.Set(key, v)
		return c.Bytes()
	}
	n := size("k|1|a", 1) // every key below has the same length and value
	c := NewCache("t", time.Hour, 10, nil)
	c.maxBytes = n
	c.Set("k|1|a", 1)
	if _, ok := c.Get("k|1|a"); !ok || c.Evictions() != 0 {
		t.Fatalf("an entry of exactly the bound: stored %v, %d evictions", ok, c.Evictions())
	}
	c.maxBytes = 3 * n
	c.Set("k|1|b", 1)
	c.Set("k|1|c", 1)
	if c.Len() != 3 || c.Evictions() != 0 || c.Bytes() != 3*n {
		t.Fatalf("three entries filling the bound: %d held, %d evictions, %d bytes", c.Len(), c.Evictions(), c.Bytes())
	}
	c.Set("k|1|d", 1)
	if c.Len() != 3 || c.Evictions() != 1 || c.Bytes() != 3*n {
		t.Fatalf("a fourth entry: %d held, %d evictions, %d bytes", c.Len(), c.Evictions(), c.Bytes())
	}
	if _, ok := c.Get("k|1|d"); !ok {
		t.Fatal("the new entry was not stored")
	}
}

// Survivors of `make mutate PKG=./translate FILES='^(metrics|metricvalues)\.go$'` on this
// branch: metrics.go:83 CONDITIONALS_BOUNDARY (span < 0: an empty range is "too short",
// not "reversed"); the 8-day edge of the old-window rule (:89, killed already) is pinned
// too. Equivalent ones (waived in tests/MUTATION.md): :90:14 (r.Period > 0 → >= 0: a
// period of 0 gives p = 0, never above the table's period), :91:52 (p > w.period → >=:
// the table's periods are whole minutes, so p.Truncate(time.Minute) == w.period), :93:16
// (w.period < time.Minute → <=: sets the minute it already is). :329:51 (the capacity
// hint len(slices)*width → /) is not equivalent: with no served value width is 0 and the
// division panics; TestMetricDataNoServedValueMut pins that case.
func TestMetricWindowEdgesMut(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	at := now.Add(-time.Hour)
	_, err := resolveWindow(MetricDataRequest{From: &at, To: &at}, now)
	if err == nil || !strings.Contains(err.Error(), "at least 60 seconds") {
		t.Fatalf("an empty range: %v", err)
	}
	from := now.Add(-8 * 24 * time.Hour)
	to := from.Add(time.Hour)
	w, err := resolveWindow(MetricDataRequest{From: &from, To: &to}, now)
	if err != nil || w.period != time.Minute {
		t.Fatalf("a start exactly 8 days old: period %v, %v; want 1m", w.period, err)
	}
	older := from.Add(-time.Second)
	w, err = resolveWindow(MetricDataRequest{From: &older, To: &to}, now)
	if err != nil || w.period != 7*time.Minute {
		t.Fatalf("a start 8 days and 1 s old: period %v, %v", w.period, err)
	}
}

// metrics.go:329 ARITHMETIC_BASE (len(slices)*width → /): values[] naming only values the
// metric does not serve give slices without values, not a panic.
func TestMetricDataNoServedValueMut(t *testing.T) {
	tr, _ := mdTranslator()
	md, err := tr.MetricData(context.Background(), Caller{AccountID: 1}, MetricScope{AppID: 7}, MetricDataRequest{Names: []string{"A"}, Values: []string{"no_such_value"}})
	if err != nil || len(md.Metrics) != 1 || len(md.Metrics[0].Timeslices) == 0 || len(md.Metrics[0].Timeslices[0].Values) != 0 {
		t.Fatalf("%+v, %v", md, err)
	}
}
