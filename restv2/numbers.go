package restv2

import (
	"math"
	"strconv"
	"time"
)

// maxExactInt is 2^53: every integer of smaller magnitude is a float64 exactly.
const maxExactInt = 1 << 53

// appendFloat appends v as strconv.AppendFloat(b, v, 'f', -1, 64) does (the shortest
// decimal that reads back as v, without an exponent). An integral value below 2^53 in
// magnitude is its integer's digits, which AppendInt writes without the shortest-digits
// search: most metric values (counts, call counts, whole milliseconds) are integral
// (BenchmarkGatewayMetricData10x180 renders a 10-name × 180-slice answer). A short decimal (REST's figures: three
// significant digits, translate/figures.go) skips the search too (appendShortDecimal;
// TestAppendFloatMatchesStrconv, BenchmarkAppendFloat).
func appendFloat(b []byte, v float64) []byte {
	if v > -maxExactInt && v < maxExactInt {
		if i := int64(v); float64(i) == v {
			return strconv.AppendInt(b, i, 10)
		}
		if out, ok := appendShortDecimal(b, v); ok {
			return out
		}
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// decimalScales are the powers of ten appendShortDecimal scales by, each exact.
var decimalScales = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}

// appendShortDecimal appends v, not integral, when it is a decimal d of at most 9
// decimals and 15 significant digits that reads back as v: then d is v's shortest
// decimal, which strconv would find. Two decimals of at most 15 significant digits
// never read back as the same float64 (its 15.95 digits), so no shorter one, and no
// other of the same length, reads back as v. ok is false for any other value.
func appendShortDecimal(b []byte, v float64) (out []byte, ok bool) {
	a := v
	if a < 0 {
		a = -a
	}
	for k := 1; k < len(decimalScales); k++ {
		m := a * decimalScales[k]
		if m >= 1e15 {
			return b, false
		}
		if m != math.Trunc(m) {
			continue
		}
		// m·10^-k is a decimal; it is v's when the correctly rounded quotient is v.
		if m/decimalScales[k] != a {
			return b, false
		}
		u := uint64(m)
		for k > 0 && u%10 == 0 {
			u /= 10
			k--
		}
		// the digits from the last: k decimals, the point, the integer part ("0" at least)
		var text [24]byte
		i := len(text)
		for range k {
			q := u / 10
			i--
			text[i] = byte('0' + u - q*10)
			u = q
		}
		i--
		text[i] = '.'
		for {
			q := u / 10
			i--
			text[i] = byte('0' + u - q*10)
			u = q
			if u == 0 {
				break
			}
		}
		if v < 0 {
			i--
			text[i] = '-'
		}
		return append(b, text[i:]...), true
	}
	return b, false
}

// appendTime appends t in UTC as t.UTC().AppendFormat(b, TimeLayout) does
// ("2006-01-02T15:04:05+00:00"), writing the digits directly for years 0–9999 (a
// metric answer formats two times per slice; TestAppendTimeMatchesLayout). Other
// years go through AppendFormat.
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, TimeLayout)
	}
	hour, minute, sec := t.Clock()
	return append(b,
		byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+int(month)/10), byte('0'+int(month)%10), '-',
		byte('0'+day/10), byte('0'+day%10), 'T',
		byte('0'+hour/10), byte('0'+hour%10), ':',
		byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+sec/10), byte('0'+sec%10), '+', '0', '0', ':', '0', '0')
}
