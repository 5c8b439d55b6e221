package sim

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		give string
		want string // canonical rendering
	}{
		{give: "domain = 'APM'", want: "domain = 'APM'"},
		{give: "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001", want: "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001"},
		{give: "accountId = '1000001'", want: "accountId = '1000001'"},
		{give: "domainId IN ('1', '22', 333)", want: "domainId IN ('1', '22', 333)"},
		{give: "name LIKE 'my-app'", want: "name LIKE 'my-app'"},
		{give: "  name   like 'x'  and   reporting = 'true' ", want: "name LIKE 'x' AND reporting = 'true'"},
		{give: "reporting = false", want: "reporting = false"},
		{give: "tags.language = 'java'", want: "tags.language = 'java'"},
		{give: "`tags.Environment` = 'staging'", want: "tags.Environment = 'staging'"},
		{give: "`team name` = 'a'", want: "`team name` = 'a'"},
		{give: "language = 'ruby'", want: "language = 'ruby'"},
		{give: "language not in ('java','go')", want: "language NOT IN ('java', 'go')"},
		{give: "domain!='APM'", want: "domain != 'APM'"},
		{give: "`not` = 'x'", want: "`not` = 'x'"},
		{give: "(domain = 'APM' OR domain = 'BROWSER') AND type = 'APPLICATION'", want: "(domain = 'APM' OR domain = 'BROWSER') AND type = 'APPLICATION'"},
		{give: "a = '1' OR b = '2' AND c = '3'", want: "a = '1' OR b = '2' AND c = '3'"},
		{give: "((name = 'x'))", want: "name = 'x'"},
		{give: `name = 'O\'Reilly'`, want: `name = 'O\'Reilly'`},
		{give: `name = 'C:\\Legacy'`, want: `name = 'C:\\Legacy'`},
		{give: "name = '日本語アプリ'", want: "name = '日本語アプリ'"},
		{give: "accountId = -1", want: "accountId = -1"},
		{give: "apdex = 0.5", want: "apdex = 0.5"},
		// A hostile value, quoted the way translate.QuoteSearch does, stays one literal.
		{give: `name = 'x\' OR accountId = 1000002 OR name LIKE \'a'`, want: `name = 'x\' OR accountId = 1000002 OR name LIKE \'a'`},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			n, err := parseQuery(tt.give)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if got := nodeString(n); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			// The rendering parses back to itself.
			n2, err := parseQuery(nodeString(n))
			if err != nil || nodeString(n2) != tt.want {
				t.Fatalf("round trip: %v %v", nodeString(n2), err)
			}
		})
	}
}

func TestParseQueryHostileLiteral(t *testing.T) {
	n, err := parseQuery(`name = 'x\' OR accountId = 1000002 OR name LIKE \'a'`)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := n.(*comparisonNode)
	if !ok {
		t.Fatalf("parsed as %T, want a single comparison", n)
	}
	if want := `x' OR accountId = 1000002 OR name LIKE 'a`; c.property != "name" || c.op != "=" || len(c.values) != 1 || c.values[0].text != want {
		t.Fatalf("comparison %+v, want name = %q", c, want)
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		give    string
		wantPos int
		wantMsg string
	}{
		{give: "", wantPos: 1, wantMsg: "empty query"},
		{give: "   ", wantPos: 4, wantMsg: "empty query"},
		{give: "domain", wantPos: 7, wantMsg: "expected =, !=, IN, NOT IN or LIKE"},
		{give: "domain = ", wantPos: 10, wantMsg: "expected a value"},
		{give: "domain = APM", wantPos: 10, wantMsg: "expected a value"},
		{give: "domain = 'APM", wantPos: 10, wantMsg: "unterminated string"},
		{give: `domain = 'APM\'`, wantPos: 10, wantMsg: "unterminated string"},
		{give: "domain = 'APM' type = 'APPLICATION'", wantPos: 16, wantMsg: "expected AND, OR or the end"},
		{give: "domain = 'APM' AND", wantPos: 19, wantMsg: "expected a property name"},
		{give: "domain = 'APM' AND AND x = '1'", wantPos: 20, wantMsg: "expected a property name"},
		{give: "(domain = 'APM'", wantPos: 16, wantMsg: "expected ')'"},
		{give: "domain = 'APM')", wantPos: 15, wantMsg: "expected AND, OR or the end"},
		{give: "domainId IN '1'", wantPos: 13, wantMsg: "'(' after IN"},
		{give: "domainId IN ()", wantPos: 14, wantMsg: "expected a value"},
		{give: "domainId IN ('1' '2')", wantPos: 18, wantMsg: "expected ',' or ')'"},
		{give: "domain ! 'APM'", wantPos: 8, wantMsg: "unsupported operator"},
		{give: "domain < 'APM'", wantPos: 8, wantMsg: "unsupported operator"},
		{give: "domain NOT 'APM'", wantPos: 12, wantMsg: "expected IN after NOT"},
		{give: "domain NOT IN 'APM'", wantPos: 15, wantMsg: "'(' after NOT IN"},
		{give: "name = \"x\"", wantPos: 8, wantMsg: "unexpected character"},
		{give: "`tags.x = 'y'", wantPos: 1, wantMsg: "unterminated backticked name"},
		{give: "accountId = 12abc", wantPos: 13, wantMsg: "malformed number"},
		{give: "name = 'é' AND ?", wantPos: 16, wantMsg: "unexpected character"},
		{give: "x' OR accountId = 1000002 OR name LIKE 'a", wantPos: 2, wantMsg: "expected =, !=, IN, NOT IN or LIKE"},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			_, err := parseQuery(tt.give)
			var se *syntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a syntax error", err)
			}
			if se.pos != tt.wantPos || !strings.Contains(se.msg, tt.wantMsg) {
				t.Fatalf("error %q (position %d), want position %d and %q", se.Error(), se.pos, tt.wantPos, tt.wantMsg)
			}
			if !strings.Contains(se.Error(), "position") {
				t.Fatalf("message %q does not name the position", se.Error())
			}
		})
	}
}

func TestLikeTokens(t *testing.T) {
	tests := []struct {
		pattern string
		value   string
		want    bool
	}{
		{pattern: "checkout", value: "Checkout Service (Production)", want: true},
		{pattern: "CHECKOUT", value: "checkout-service", want: true},
		{pattern: ":aws:", value: "-aws.", want: true},
		{pattern: "check serv", value: "checkout-service", want: true},
		{pattern: "service-checkout", value: "checkout-service", want: true},
		{pattern: "check_out", value: "checkout-service", want: true},
		{pattern: "checkin", value: "checkout-service", want: false},
		{pattern: "api.example", value: "api.example.com", want: true},
		{pattern: "Billing (EU)", value: "billing-eu-worker", want: true},
		{pattern: "billing eu", value: "Billing (US)", want: false},
		{pattern: "reilly", value: "O'Reilly Books", want: true},
		{pattern: "o'reilly", value: "O'Reilly Books", want: true},
		{pattern: "café", value: "Café Ünïcode", want: true},
		{pattern: "ÜNÏCODE", value: "Café Ünïcode", want: true},
		{pattern: "語ア", value: "日本語アプリ", want: true},
		{pattern: "***", value: "anything", want: true},
		{pattern: "a%b", value: "ab", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"~"+tt.value, func(t *testing.T) {
			got := matchTokens(strings.ToLower(tt.value), likeTokens(tt.pattern, true))
			if got != tt.want {
				t.Fatalf("%q LIKE %q = %v, want %v (tokens %q)", tt.value, tt.pattern, got, tt.want, likeTokens(tt.pattern, true))
			}
		})
	}
}

func TestCompileComparison(t *testing.T) {
	e := &entity{
		guid: "MTAwMDAwMXxBUE18QVBQTElDQVRJT058MTI", accountID: 1000001, domain: "APM", typ: "APPLICATION",
		domainID: "12", name: "Checkout Service", nameLower: "checkout service", reporting: true,
		alertSeverity: "WARNING",
		tags:          makeTags(map[string][]string{"language": {"java"}, "Environment": {"Staging", "qa"}}),
	}
	tests := []struct {
		query         string
		caseSensitive bool
		want          bool
	}{
		{query: "domain = 'APM'", want: true},
		{query: "domain = 'apm'", want: true},
		{query: "type = 'APPLICATION' AND domain = 'BROWSER'", want: false},
		{query: "accountId = 1000001", want: true},
		{query: "accountId = '1000001'", want: true},
		{query: "accountId = 1000002", want: false},
		{query: "domainId IN ('1', '12')", want: true},
		{query: "domainId IN (1, 2)", want: false},
		{query: "id = 'MTAwMDAwMXxBUE18QVBQTElDQVRJT058MTI='", want: true},
		{query: "id = 'mtawmdawmxxbue18qvbqtelduqfusu9ofdeY'", want: false},
		{query: "name = 'checkout service'", want: true},
		{query: "name = 'Checkout'", want: false},
		{query: "name LIKE 'out serv'", want: true},
		{query: "reporting = 'true'", want: true},
		{query: "reporting = true", want: true},
		{query: "reporting = 'false'", want: false},
		{query: "alertSeverity = 'WARNING'", want: true},
		{query: "alertSeverity IN ('CRITICAL', 'NOT_ALERTING')", want: false},
		{query: "language = 'java'", want: true},
		{query: "language != 'java'", want: false},
		{query: "language != 'go'", want: true},
		{query: "language NOT IN ('GO', 'JAVA')", want: false},
		{query: "language NOT IN ('go', 'ruby')", want: true},
		{query: "tags.language NOT IN ('JAVA')", caseSensitive: true, want: true},
		{query: "Environment NOT IN ('qa')", want: false}, // one of its values is listed
		{query: "missing != 'x'", want: false},            // no value: neither form matches
		{query: "missing NOT IN ('x')", want: false},
		{query: "alertSeverity NOT IN ('CRITICAL', 'NOT_ALERTING')", want: true},
		{query: "tags.language = 'JAVA'", want: true},
		{query: "tags.language = 'JAVA'", caseSensitive: true, want: false},
		{query: "`tags.Environment` = 'qa'", want: true},
		{query: "Environment LIKE 'stag'", want: true},
		{query: "environment = 'qa'", want: false},
		{query: "missing = 'x'", want: false},
		{query: "domain = 'BROWSER' OR name LIKE 'checkout'", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			n, err := parseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if got := compile(n, compileOptions{caseSensitiveTags: tt.caseSensitive})(e); got != tt.want {
				t.Fatalf("match = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCursor(t *testing.T) {
	c := encodeCursor("es", 200, 0xabc)
	if off, err := decodeCursor("es", c, 0xabc); err != nil || off != 200 {
		t.Fatalf("decode = %d, %v", off, err)
	}
	for _, bad := range []string{"", "!!", encodeCursor("es", 200, 0xabd), encodeCursor("re", 200, 0xabc), encodeCursor("es", -1, 0xabc)} {
		if _, err := decodeCursor("es", bad, 0xabc); err == nil {
			t.Errorf("cursor %q accepted", bad)
		}
	}
	if slices.Contains([]byte(c), '=') {
		t.Errorf("cursor %q is padded", c)
	}
}
