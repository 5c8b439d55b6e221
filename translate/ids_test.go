package translate

import (
	"strconv"
	"strings"
	"testing"
)

// TestSurrogateIDsAreStable pins surrogate ids to values computed outside Go
// (sha256 of "namespace|accountId|key", first 8 bytes big-endian, low 31 bits): a
// caller keeps a host's id across restarts and upgrades, so the derivation never
// changes.
func TestSurrogateIDsAreStable(t *testing.T) {
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"host", HostID(1000001, 314221522, "web-01.example.com"), 1691142990},
		{"namespace", SurrogateID("changeTracking", 1000002, "abc"), 585945777},
		{"key longer than the stack buffer", HostID(1000001, 1, strings.Repeat("h", 200)), 308476013},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: id %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}

func TestGUIDExamples(t *testing.T) {
	// Three GUIDs from newrelic-client-go fixtures and four constructed ones.
	tests := []struct {
		give string
		want GUID
	}{
		{"MzgwNjUyNnxBUE18QVBQTElDQVRJT058NTUzNDQ4MjAy", GUID{3806526, "APM", "APPLICATION", "553448202"}},
		{"MjUwODI1OXxCUk9XU0VSfEFQUExJQ0FUSU9OfDIwNDI2MTYyOA", GUID{2508259, "BROWSER", "APPLICATION", "204261628"}},
		{"MzgwNjUyNnxNT0JJTEV8QVBQTElDQVRJT058NjAxNDgzNzYy", GUID{3806526, "MOBILE", "APPLICATION", "601483762"}},
		{"MTIzNDU2N3xBUE18QVBQTElDQVRJT058MjA0MjYxNDEw", GUID{1234567, "APM", "APPLICATION", "204261410"}},
		{"MTIzNDU2N3xCUk9XU0VSfEFQUExJQ0FUSU9OfDIwNDI2MTYyOA", GUID{1234567, "BROWSER", "APPLICATION", "204261628"}},
		{"MTIzNDU2N3xNT0JJTEV8QVBQTElDQVRJT058NjAxNDgzNzYy", GUID{1234567, "MOBILE", "APPLICATION", "601483762"}},
		{"MTIzNDU2N3xFWFR8S0VZX1RSQU5TQUNUSU9OfDEyMzQ1Ng", GUID{1234567, "EXT", "KEY_TRANSACTION", "123456"}},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, err := ParseGUID(tt.give)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("ParseGUID = %+v, want %+v", got, tt.want)
			}
			if s := got.String(); s != tt.give {
				t.Fatalf("String = %q, want %q", s, tt.give)
			}
			if id, err := strconv.ParseInt(got.DomainID, 10, 64); err == nil && got.Type == TypeApp {
				if s := AppGUID(got.AccountID, got.Domain, id); s != tt.give {
					t.Fatalf("AppGUID = %q, want %q", s, tt.give)
				}
			}
			// Padded input decodes too; output is never padded.
			padded := tt.give
			for len(padded)%4 != 0 {
				padded += "="
			}
			if got2, err := ParseGUID(padded); err != nil || got2 != tt.want {
				t.Fatalf("padded %q: %+v, %v", padded, got2, err)
			}
		})
	}
	if g := AppGUID(1234567, DomainAPM, 204261410); g != "MTIzNDU2N3xBUE18QVBQTElDQVRJT058MjA0MjYxNDEw" {
		t.Fatalf("AppGUID = %q", g)
	}
}

func TestParseGUIDErrors(t *testing.T) {
	for _, give := range []string{"", "!!!", "MXxBUE0", "eHxBUE18QVBQTElDQVRJT058MQ"} { // "", bad b64, "1|APM", "x|APM|APPLICATION|1"
		if _, err := ParseGUID(give); err == nil {
			t.Errorf("ParseGUID(%q) = nil error", give)
		}
	}
}

func FuzzParseGUID(f *testing.F) {
	f.Add("MTIzNDU2N3xBUE18QVBQTElDQVRJT058MjA0MjYxNDEw")
	f.Add("MjUwODI1OXxCUk9XU0VSfEFQUExJQ0FUSU9OfDIwNDI2MTYyOA==")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGUID(s)
		if err != nil {
			return
		}
		back, err := ParseGUID(g.String())
		if err != nil || back != g {
			t.Fatalf("round trip of %q: %+v vs %+v (%v)", s, back, g, err)
		}
	})
}

// TestHostIDMemoIsHostID: the memo's id is HostID's for every input, remembered or not,
// across the point where it empties itself at its cap; a nil memo computes it too.
func TestHostIDMemoIsHostID(t *testing.T) {
	m := newHostIDMemo(3)
	var nilMemo *hostIDMemo
	hosts := []string{"web-1", "web-2", "db", strings.Repeat("h", 200), "web-1", "", "db", "web-2"}
	for round := range 2 {
		for i, h := range hosts {
			for _, app := range []int64{1, 314221522} {
				want := HostID(1000001, app, h)
				if got := m.hostID(1000001, app, h); got != want {
					t.Fatalf("round %d host %d app %d: memo %d, HostID %d", round, i, app, got, want)
				}
				if got := nilMemo.hostID(1000001, app, h); got != want {
					t.Fatalf("nil memo: %d, want %d", got, want)
				}
			}
		}
		if n := len(m.ids); n > 3 {
			t.Fatalf("%d ids remembered, cap 3", n)
		}
	}
}

// A GUID longer than String's stack buffer reads back the same.
func TestLongGUIDRoundTrips(t *testing.T) {
	g := GUID{AccountID: 1, Domain: "EXT", Type: "SERVICE_LEVEL", DomainID: strings.Repeat("x", 200)}
	got, err := ParseGUID(g.String())
	if err != nil || got != g {
		t.Fatalf("ParseGUID(String) = %+v, %v; want %+v", got, err, g)
	}
}
