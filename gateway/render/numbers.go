package render

import (
	"strconv"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// maxExactInt is 2^53: every integer of smaller magnitude is a float64 exactly.
const maxExactInt = 1 << 53

// appendFloat appends v as strconv.AppendFloat(b, v, 'f', -1, 64) does (the shortest
// decimal that reads back as v, without an exponent). An integral value below 2^53 in
// magnitude is its integer's digits, which AppendInt writes without the shortest-digits
// search: most metric values (counts, call counts, whole milliseconds) are integral, and
// the search was a fifth of a 10-name × 180-slice answer's CPU
// (BenchmarkGatewayMetricData10x180; TestAppendFloatMatchesStrconv).
func appendFloat(b []byte, v float64) []byte {
	if v > -maxExactInt && v < maxExactInt {
		if i := int64(v); float64(i) == v {
			return strconv.AppendInt(b, i, 10)
		}
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// appendTime appends t in UTC as t.UTC().AppendFormat(b, v2.TimeLayout) does
// ("2006-01-02T15:04:05+00:00"), writing the digits directly for years 0–9999 (a
// metric answer formats two times per slice; TestAppendTimeMatchesLayout). Other
// years go through AppendFormat.
func appendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, v2.TimeLayout)
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
