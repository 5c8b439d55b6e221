package restv2

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// timeFormats names the accepted time formats in ParseTime's errors.
const timeFormats = "use ISO 8601 like 2006-01-02T15:04:05+00:00 " +
	"(also 2006-01-02 15:04:05, optional seconds and fraction, Z or ±hh:mm or ±hhmm offset, " +
	"no offset for UTC, or 2006-01-02 for midnight UTC)"

// ParseTime parses a time parameter (from, to, start_date, ...) in any form REST v2
// callers send and returns it in UTC:
//
//	2006-01-02T15:04:05Z             RFC 3339; 'T' or a space between date and time
//	2006-01-02T15:04:05.123+01:00    fractional seconds (any number of digits)
//	2006-01-02T15:04:05-0700         offset without a colon, or hours only (+07)
//	2006-01-02T15:04+01:00           seconds omitted
//	2006-01-02 15:04:05              no offset: UTC (Python's str(datetime))
//	2006-01-02 15:04:05 01:00        "+01:00" whose '+' was decoded to a space
//	2006-01-02 15:04:05 +0100        a space before the offset (Ruby's Time#to_s)
//	2006-01-02 15:04:05 UTC          "UTC" or "GMT" as the zone
//	2006-01-02                       date only: midnight UTC
//
// Surrounding whitespace is ignored and letters are case-insensitive. Anything else
// is an error whose message quotes the input and names the accepted format.
func ParseTime(s string) (time.Time, error) {
	t, ok := parseTime(strings.TrimSpace(s))
	if !ok {
		return time.Time{}, errors.New(quoteValue(s) + " is not a time; " + timeFormats)
	}
	return t, nil
}

func parseTime(s string) (time.Time, bool) {
	p := timeScanner{s: s}
	year, ok1 := p.digits(4)
	ok2 := p.char('-')
	month, ok3 := p.digits(2)
	ok4 := p.char('-')
	day, ok5 := p.digits(2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || month < 1 || month > 12 {
		return time.Time{}, false
	}
	var hour, minute, sec, nsec, offset int
	if !p.done() {
		if !p.char('T') && !p.char('t') && !p.spaces() {
			return time.Time{}, false
		}
		var ok bool
		if hour, minute, sec, nsec, ok = p.clock(); !ok {
			return time.Time{}, false
		}
		if offset, ok = p.zone(); !ok {
			return time.Time{}, false
		}
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // 2021-02-30 would roll over into March
		return time.Time{}, false
	}
	t = t.Add(-time.Duration(offset) * time.Second)
	if y := t.Year(); y < 1 || y > 9999 { // keep results printable as YYYY
		return time.Time{}, false
	}
	return t, true
}

// timeScanner reads a time string left to right.
type timeScanner struct {
	s string
	i int
}

func (p *timeScanner) done() bool { return p.i == len(p.s) }

func (p *timeScanner) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.i]
}

// char consumes c when it comes next.
func (p *timeScanner) char(c byte) bool {
	if p.peek() == c && !p.done() {
		p.i++
		return true
	}
	return false
}

// spaces consumes a run of spaces and reports whether there was one.
func (p *timeScanner) spaces() bool {
	start := p.i
	for p.peek() == ' ' {
		p.i++
	}
	return p.i > start
}

// digits consumes exactly n decimal digits.
func (p *timeScanner) digits(n int) (int, bool) {
	if len(p.s)-p.i < n {
		return 0, false
	}
	v := 0
	for _, c := range []byte(p.s[p.i : p.i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}

// clock reads hh:mm[:ss[.fraction]].
func (p *timeScanner) clock() (hour, minute, sec, nsec int, ok bool) {
	hour, ok1 := p.digits(2)
	ok2 := p.char(':')
	minute, ok3 := p.digits(2)
	if !(ok1 && ok2 && ok3) || hour > 23 || minute > 59 {
		return 0, 0, 0, 0, false
	}
	if !p.char(':') {
		return hour, minute, 0, 0, true
	}
	sec, ok = p.digits(2)
	if !ok || sec > 59 {
		return 0, 0, 0, 0, false
	}
	if !p.char('.') && !p.char(',') {
		return hour, minute, sec, 0, true
	}
	n := 0
	for c := p.peek(); '0' <= c && c <= '9'; c = p.peek() {
		if n < 9 {
			nsec = nsec*10 + int(c-'0')
		}
		n++
		p.i++
	}
	if n == 0 {
		return 0, 0, 0, 0, false
	}
	for ; n < 9; n++ {
		nsec *= 10
	}
	return hour, minute, sec, nsec, true
}

// zone reads what follows the clock up to the end of the string and returns the
// offset east of UTC in seconds.
func (p *timeScanner) zone() (int, bool) {
	spaced := p.spaces()
	if p.done() {
		return 0, true
	}
	switch rest := p.s[p.i:]; {
	case rest == "Z" || rest == "z" || strings.EqualFold(rest, "UTC") || strings.EqualFold(rest, "GMT"):
		return 0, true
	}
	sign := 1
	switch {
	case p.char('+'):
	case p.char('-'):
		sign = -1
	case !spaced:
		return 0, false
	}
	// Otherwise a space followed by digits: a '+' decoded to a space.
	hh, ok := p.digits(2)
	if !ok || hh > 23 {
		return 0, false
	}
	mm := 0
	if !p.done() {
		p.char(':')
		if mm, ok = p.digits(2); !ok || mm > 59 {
			return 0, false
		}
	}
	if !p.done() {
		return 0, false
	}
	return sign * (hh*3600 + mm*60), true
}

// quoteValue quotes a caller's value for an error message, shortened.
func quoteValue(s string) string { return strconv.Quote(shorten(s)) }

// shorten cuts s to at most 64 bytes (on a UTF-8 boundary) plus "…".
func shorten(s string) string {
	const limit = 64
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}
