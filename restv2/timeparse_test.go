package restv2

import (
	"strings"
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		give string
		want time.Time
	}{
		// RFC 3339
		{"2019-12-11T19:09:10Z", utc(2019, 12, 11, 19, 9, 10, 0)},
		{"2019-12-11T19:09:10z", utc(2019, 12, 11, 19, 9, 10, 0)},
		{"2019-12-11t19:09:10Z", utc(2019, 12, 11, 19, 9, 10, 0)},
		{"2019-12-11T19:09:10+00:00", utc(2019, 12, 11, 19, 9, 10, 0)},
		{"2019-12-11T19:09:10-00:00", utc(2019, 12, 11, 19, 9, 10, 0)},
		{"2014-07-01T00:00:00+08:00", utc(2014, 6, 30, 16, 0, 0, 0)},
		{"2014-07-01T00:00:00-07:00", utc(2014, 7, 1, 7, 0, 0, 0)},
		{"2014-07-01T00:00:00+05:30", utc(2014, 6, 30, 18, 30, 0, 0)},
		// offsets without colon, hours only
		{"2014-07-01T00:00:00+0800", utc(2014, 6, 30, 16, 0, 0, 0)},
		{"2014-07-01T00:00:00-0730", utc(2014, 7, 1, 7, 30, 0, 0)},
		{"2014-07-01T00:00:00+08", utc(2014, 6, 30, 16, 0, 0, 0)},
		// fractional seconds
		{"2019-12-11T19:09:10.5Z", utc(2019, 12, 11, 19, 9, 10, 500000000)},
		{"2019-12-11T19:09:10.123456+00:00", utc(2019, 12, 11, 19, 9, 10, 123456000)},
		{"2019-12-11T19:09:10.123456789123Z", utc(2019, 12, 11, 19, 9, 10, 123456789)},
		{"2019-12-11T19:09:10,25Z", utc(2019, 12, 11, 19, 9, 10, 250000000)},
		// optional seconds
		{"2019-12-11T19:09Z", utc(2019, 12, 11, 19, 9, 0, 0)},
		{"2019-12-11T19:09+01:00", utc(2019, 12, 11, 18, 9, 0, 0)},
		{"2019-12-11 19:09", utc(2019, 12, 11, 19, 9, 0, 0)},
		// space separator, no offset = UTC (Python str(datetime))
		{"2016-01-01 00:00:00", utc(2016, 1, 1, 0, 0, 0, 0)},
		{"2016-01-01 12:34:56.789", utc(2016, 1, 1, 12, 34, 56, 789000000)},
		{"2016-01-01T12:34:56", utc(2016, 1, 1, 12, 34, 56, 0)},
		{"2016-01-01 00:00:00+00:00", utc(2016, 1, 1, 0, 0, 0, 0)},
		// '+' decoded to a space
		{"2016-01-01 00:00:00 00:00", utc(2016, 1, 1, 0, 0, 0, 0)},
		{"2014-07-01T00:00:00 08:00", utc(2014, 6, 30, 16, 0, 0, 0)},
		{"2014-07-01T00:00:00 0800", utc(2014, 6, 30, 16, 0, 0, 0)},
		{"2014-07-01 00:00 08:00", utc(2014, 6, 30, 16, 0, 0, 0)},
		{"2016-01-01 00:00:00.5 01:00", utc(2015, 12, 31, 23, 0, 0, 500000000)},
		// a space before an explicit offset or zone name (Ruby Time#to_s)
		{"2014-07-01 00:00:00 +0800", utc(2014, 6, 30, 16, 0, 0, 0)},
		{"2014-07-01 00:00:00 -07:00", utc(2014, 7, 1, 7, 0, 0, 0)},
		{"2014-07-01 00:00:00 UTC", utc(2014, 7, 1, 0, 0, 0, 0)},
		{"2014-07-01 00:00:00 gmt", utc(2014, 7, 1, 0, 0, 0, 0)},
		{"2014-07-01 00:00:00 Z", utc(2014, 7, 1, 0, 0, 0, 0)},
		// date only = midnight UTC
		{"2018-02-13", utc(2018, 2, 13, 0, 0, 0, 0)},
		{"2020-02-29", utc(2020, 2, 29, 0, 0, 0, 0)},
		// surrounding whitespace
		{"  2018-02-13T01:02:03Z\n", utc(2018, 2, 13, 1, 2, 3, 0)},
		// crossing a year boundary
		{"2016-12-31T23:30:00-01:00", utc(2017, 1, 1, 0, 30, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, err := ParseTime(tt.give)
			if err != nil {
				t.Fatalf("ParseTime(%q): %v", tt.give, err)
			}
			if !got.Equal(tt.want) || got.Location() != time.UTC {
				t.Errorf("ParseTime(%q) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func TestParseTimeErrors(t *testing.T) {
	tests := []string{
		"",
		"   ",
		"yesterday",
		"1454313600",            // epoch seconds
		"2018-2-13",             // unpadded
		"18-02-13",              // two-digit year
		"2018/02/13",            // wrong separator
		"2018-13-01",            // month 13
		"2018-00-10",            // month 0
		"2018-02-30",            // no such day
		"2019-02-29",            // not a leap year
		"2018-02-13T",           // missing clock
		"2018-02-13T24:00:00Z",  // hour 24
		"2018-02-13T23:60:00Z",  // minute 60
		"2018-02-13T23:59:60Z",  // leap second
		"2018-02-13T1:02:03Z",   // unpadded hour
		"2018-02-13T01:02:03.Z", // empty fraction
		"2018-02-13T01:02:03+8", // one-digit offset
		"2018-02-13T01:02:03+25:00",
		"2018-02-13T01:02:03+08:60",
		"2018-02-13T01:02:03+08:00:00",
		"2018-02-13T01:02:03 PST",
		"2018-02-13T01:02:03ZZ",
		"2018-02-13T01:02:03 08:00 extra",
		"2018-02-13X01:02:03",
		"2018-02-13T01:02:03+08:0",
		"0000-01-01",                // year 0
		"0001-01-01T00:00:00+01:00", // before year 1 in UTC
		"9999-12-31T23:59:59-01:00", // after year 9999 in UTC
	}
	for _, give := range tests {
		t.Run(give, func(t *testing.T) {
			got, err := ParseTime(give)
			if err == nil {
				t.Fatalf("ParseTime(%q) = %v, want an error", give, got)
			}
			msg := err.Error()
			if !strings.Contains(msg, "2006-01-02T15:04:05+00:00") {
				t.Errorf("error %q does not name the accepted format", msg)
			}
			if !strings.HasPrefix(msg, `"`) {
				t.Errorf("error %q does not quote the input first", msg)
			}
		})
	}
}

func TestParseTimeErrorQuotesLongInputShortened(t *testing.T) {
	_, err := ParseTime(strings.Repeat("é", 100))
	if err == nil {
		t.Fatal("want an error")
	}
	quoted, _, _ := strings.Cut(err.Error(), " is not a time")
	if !strings.HasSuffix(quoted, `…"`) || len(quoted) > 80 {
		t.Errorf("quoted input = %q, want at most 64 bytes and an ellipsis", quoted)
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2019-12-11T19:09:10+00:00", "2016-01-01 00:00:00 00:00", "2018-02-13", "2014-07-01 00:00:00 UTC",
		"0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s)
		if err != nil {
			return
		}
		if got.Location() != time.UTC {
			t.Errorf("ParseTime(%q) not in UTC: %v", s, got)
		}
		// REST v2's own output format parses back to the same instant.
		if back, err := ParseTime(FormatTime(got)); err != nil || !back.Equal(got.Truncate(time.Second)) {
			t.Errorf("ParseTime(FormatTime(%v)) = %v, %v", got, back, err)
		}
	})
}

func TestParseTimeBoundaries(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		name string
		give string
		want time.Time
	}{
		// Year 1 is accepted.
		{"first printable year", "0001-01-01T00:00:00Z", utc(1, 1, 1, 0, 0, 0, 0)},
		// Year 9999 is accepted.
		{"last printable year", "9999-12-31T23:59:59Z", utc(9999, 12, 31, 23, 59, 59, 0)},
		// Minute 59 is accepted.
		{"minute 59", "2021-03-04T10:59Z", utc(2021, 3, 4, 10, 59, 0, 0)},
		// Second 59 is accepted.
		{"second 59", "2021-03-04T10:00:59Z", utc(2021, 3, 4, 10, 0, 59, 0)},
		// A fraction may start with 0.
		{"fraction starting with 0", "2021-03-04T10:00:00.05Z", utc(2021, 3, 4, 10, 0, 0, 50_000_000)},
		// A fraction may hold a 9.
		{"fraction with 9", "2021-03-04T10:00:00.9Z", utc(2021, 3, 4, 10, 0, 0, 900_000_000)},
		// A +23:00 offset is accepted.
		{"offset +23:00", "2021-03-04T23:00:00+23:00", utc(2021, 3, 4, 0, 0, 0, 0)},
		// Offset minutes 59 are accepted.
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

func TestParseTimeRejects(t *testing.T) {
	for _, give := range []string{
		// Digits straight after the clock are not read as an offset.
		"2021-03-04T10:0005:00",
		// Year 0 (after an offset) is not printable as YYYY.
		"0001-01-01T00:00:00+01:00",
		// Year 10000 (after an offset).
		"9999-12-31T23:30:00-01:00",
	} {
		if got, err := ParseTime(give); err == nil {
			t.Errorf("ParseTime(%q) = %v, want an error", give, got)
		}
	}
}

func TestShorten(t *testing.T) {
	exact := strings.Repeat("a", 64)
	// A 64-byte value is not shortened.
	if got := shorten(exact); got != exact {
		t.Errorf("shorten(64 bytes) = %q, want it unchanged", got)
	}
	// Shortening backs off rather than split the 'é' (2 bytes) that straddles byte 64.
	split := strings.Repeat("a", 63) + "é" + "tail"
	if got, want := shorten(split), strings.Repeat("a", 63)+"…"; got != want {
		t.Errorf("shorten(split rune) = %q, want %q", got, want)
	}
	// Bytes that are all UTF-8 continuation bytes shorten to the ellipsis, without walking
	// below zero.
	if got := shorten(strings.Repeat("\x80", 70)); got != "…" {
		t.Errorf("shorten(continuation bytes) = %q, want %q", got, "…")
	}
}
