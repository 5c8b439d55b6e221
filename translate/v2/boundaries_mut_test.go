package v2

// Boundary tests written against surviving mutants of `make mutate PKG=./translate/v2/...`
// (gremlins v0.6.0). Each case names the mutant (file:line, mutator) it kills.
//
// Waived equivalent mutants in this package (no behaviour can tell them apart; see
// tests/MUTATION.md):
//   - params.go:105 CONDITIONALS_BOUNDARY: `p.count(name) > max` is only a cheap pre-check;
//     the distinct count inside is checked again with `> max`, and count == max implies
//     distinct <= max, so `>=` changes nothing observable.
//   - params.go:176 CONDITIONALS_NEGATION (`len(vals) == 16`) and params.go:298
//     CONDITIONALS_BOUNDARY/NEGATION (`len(p.pairs) > 32`): these only choose between a
//     linear scan and a map for de-duplication; both give the same values in the same order.

import (
	"strings"
	"testing"
	"time"
)

func TestParseTimeBoundariesMut(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		name string
		give string
		want time.Time
	}{
		// timeparse.go:66 `y < 1` → `y <= 1` rejects year 1.
		{"first printable year", "0001-01-01T00:00:00Z", utc(1, 1, 1, 0, 0, 0, 0)},
		// timeparse.go:66 `y > 9999` → `y >= 9999` rejects year 9999.
		{"last printable year", "9999-12-31T23:59:59Z", utc(9999, 12, 31, 23, 59, 59, 0)},
		// timeparse.go:126 `minute > 59` → `>=` rejects minute 59.
		{"minute 59", "2021-03-04T10:59Z", utc(2021, 3, 4, 10, 59, 0, 0)},
		// timeparse.go:133 `sec > 59` → `>=` rejects second 59.
		{"second 59", "2021-03-04T10:00:59Z", utc(2021, 3, 4, 10, 0, 59, 0)},
		// timeparse.go:140 `'0' <= c` → `'0' < c` stops the fraction at a leading 0.
		{"fraction starting with 0", "2021-03-04T10:00:00.05Z", utc(2021, 3, 4, 10, 0, 0, 50_000_000)},
		// timeparse.go:140 `c <= '9'` → `c < '9'` stops the fraction at a 9.
		{"fraction with 9", "2021-03-04T10:00:00.9Z", utc(2021, 3, 4, 10, 0, 0, 900_000_000)},
		// timeparse.go:177 `hh > 23` → `>=` rejects a +23 offset.
		{"offset +23:00", "2021-03-04T23:00:00+23:00", utc(2021, 3, 4, 0, 0, 0, 0)},
		// timeparse.go:183 `mm > 59` → `>=` rejects offset minutes 59.
		{"offset -00:59", "2021-03-04T10:00:00-00:59", utc(2021, 3, 4, 10, 59, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTime(tt.give)
			if err != nil {
				t.Fatalf("ParseTime(%q): %v", tt.give, err)
			}
			if !got.Equal(tt.want) {
				t.Errorf("ParseTime(%q) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func TestParseTimeRejectsMut(t *testing.T) {
	for _, give := range []string{
		// timeparse.go:102 `p.i > start` → `>=` makes spaces() always true, so digits
		// straight after the clock would be read as an offset.
		"2021-03-04T10:0005:00",
		// timeparse.go:66: year 0 (after an offset) is not printable as YYYY.
		"0001-01-01T00:00:00+01:00",
		// timeparse.go:66: year 10000 (after an offset).
		"9999-12-31T23:30:00-01:00",
	} {
		if got, err := ParseTime(give); err == nil {
			t.Errorf("ParseTime(%q) = %v, want an error", give, got)
		}
	}
}

func TestShortenMut(t *testing.T) {
	exact := strings.Repeat("a", 64)
	// timeparse.go:199 `len(s) <= limit` → `<` would shorten a 64-byte value.
	if got := shorten(exact); got != exact {
		t.Errorf("shorten(64 bytes) = %q, want it unchanged", got)
	}
	// timeparse.go:203 `cut > 0` → `cut <= 0` never backs off, splitting the 'é' (2 bytes)
	// that straddles byte 64.
	split := strings.Repeat("a", 63) + "é" + "tail"
	if got, want := shorten(split), strings.Repeat("a", 63)+"…"; got != want {
		t.Errorf("shorten(split rune) = %q, want %q", got, want)
	}
	// timeparse.go:203 `cut > 0` → `cut >= 0` walks below zero (a panic) on bytes that are
	// all UTF-8 continuation bytes.
	if got := shorten(strings.Repeat("\x80", 70)); got != "…" {
		t.Errorf("shorten(continuation bytes) = %q, want %q", got, "…")
	}
}

func TestParseParamsLimitEdgesMut(t *testing.T) {
	pairs := make([]string, MaxParams)
	for i := range pairs {
		pairs[i] = "k=v"
	}
	exact := strings.Join(pairs, "&")
	// params.go:72 `MaxParams+2` → `MaxParams-2`, and params.go:98 `> MaxParams` → `>=`,
	// reject exactly MaxParams pairs.
	if _, err := ParseParams(exact, ""); err != nil {
		t.Errorf("ParseParams(%d pairs): %v, want accepted", MaxParams, err)
	}
	// params.go:72 `n > MaxParams+2` → `>=`: MaxParams pairs and a trailing '&' (MaxParams
	// separators, no extra pair) must still be accepted.
	if _, err := ParseParams(exact+"&", ""); err != nil {
		t.Errorf("ParseParams(%d pairs + trailing &): %v, want accepted", MaxParams, err)
	}
	// One pair more is refused.
	if _, err := ParseParams(exact, "k=v"); err == nil {
		t.Errorf("ParseParams(%d pairs): accepted, want a ParamError", MaxParams+1)
	}
}
