package translate

import (
	"strings"
	"testing"
)

func TestQuoteSearch(t *testing.T) {
	tests := []struct {
		give, want string
		wantErr    bool
	}{
		{give: "java", want: `'java'`},
		{give: "O'Reilly", want: `'O\'Reilly'`},
		{give: `back\slash`, want: `'back\\slash'`},
		{give: `x' OR accountId = 1000002 OR name LIKE 'a`, want: `'x\' OR accountId = 1000002 OR name LIKE \'a'`},
		{give: `\'`, want: `'\\\''`},
		{give: "Café 日本", want: `'Café 日本'`},
		{give: "line\nbreak", wantErr: true},
		{give: "nul\x00", wantErr: true},
	}
	for _, tt := range tests {
		got, err := QuoteSearch(tt.give)
		if (err != nil) != tt.wantErr {
			t.Errorf("QuoteSearch(%q) error = %v, wantErr %v", tt.give, err, tt.wantErr)
			continue
		}
		if got != tt.want {
			t.Errorf("QuoteSearch(%q) = %s, want %s", tt.give, got, tt.want)
		}
	}
}

func TestEntitySearchBuild(t *testing.T) {
	tests := []struct {
		name    string
		give    *SearchQuery
		want    string
		wantErr bool
	}{
		{
			name: "scope",
			give: EntitySearch(1000001, DomainAPM, TypeApp),
			want: `domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001`,
		},
		{
			name: "language and ids",
			give: EntitySearch(1000001, DomainAPM, TypeApp).Eq("language", "java").InInts("domainId", []int64{1, 22}),
			want: `domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001 AND language = 'java' AND domainId IN ('1', '22')`,
		},
		{
			name: "hostile value stays one literal",
			give: EntitySearch(1000001, DomainAPM, TypeApp).Eq("language", `x' OR accountId = 1000002 OR name LIKE 'a`),
			want: `domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001 AND language = 'x\' OR accountId = 1000002 OR name LIKE \'a'`,
		},
		{name: "bad property", give: EntitySearch(1, DomainAPM, TypeApp).Eq("name = 'x' OR a", "y"), wantErr: true},
		{name: "control character", give: EntitySearch(1, DomainAPM, TypeApp).Eq("language", "a\tb"), wantErr: true},
		{name: "empty in", give: EntitySearch(1, DomainAPM, TypeApp).InInts("domainId", nil), wantErr: true},
		{
			name: "not in, each value quoted",
			give: EntitySearch(1, DomainAPM, TypeApp).NotIn("language", []string{"java", `o'k`}),
			want: `domain = 'APM' AND type = 'APPLICATION' AND accountId = 1 AND language NOT IN ('java', 'o\'k')`,
		},
		{name: "empty not in", give: EntitySearch(1, DomainAPM, TypeApp).NotIn("language", nil), wantErr: true},
		{name: "not in, control character", give: EntitySearch(1, DomainAPM, TypeApp).NotIn("language", []string{"a", "b\x01"}), wantErr: true},
		{name: "not in, invalid UTF-8", give: EntitySearch(1, DomainAPM, TypeApp).NotIn("language", []string{"\xff"}), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.give.Build()
			if (err != nil) != tt.wantErr {
				t.Fatalf("Build error = %v, wantErr %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("Build = %s\nwant    %s", got, tt.want)
			}
		})
	}
}

// Property: whatever the value, the built entity-search query parses (in the
// simulator's parser terms: quotes balanced) and keeps the account scope — the value
// never ends its string literal early.
func FuzzQuoteSearch(f *testing.F) {
	for _, s := range []string{"java", `x' OR accountId = 1000002 OR name LIKE 'a`, `\`, `\'`, "日本", "'''", `\\'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		q, err := EntitySearch(1000001, DomainAPM, TypeApp).Eq("language", v).Build()
		if err != nil {
			return // control characters are refused
		}
		const prefix = "domain = 'APM' AND type = 'APPLICATION' AND accountId = 1000001 AND language = '"
		if !strings.HasPrefix(q, prefix) || !strings.HasSuffix(q, "'") {
			t.Fatalf("scope changed: %s", q)
		}
		// Unescape the literal and check it is exactly v, ending at the last quote.
		lit := q[len(prefix) : len(q)-1]
		var b strings.Builder
		for i := 0; i < len(lit); i++ {
			switch lit[i] {
			case '\\':
				i++
				if i == len(lit) {
					t.Fatalf("dangling escape in %s", q)
				}
				b.WriteByte(lit[i])
			case '\'':
				t.Fatalf("unescaped quote ends the literal early: %s", q)
			default:
				b.WriteByte(lit[i])
			}
		}
		if b.String() != v {
			t.Fatalf("literal %q != value %q", b.String(), v)
		}
	})
}

// validProperty: `_` anywhere, `.` and digits only after the first character, ASCII
// letters and digits only.
func TestValidProperty(t *testing.T) {
	for p, want := range map[string]bool{
		"": false, "_": true, "a_b": true, "_a": true,
		"a.b": true, "a.": true, ".a": false,
		"a1": true, "1a": false, "a\u0663": false, "\u00e9": false, "aé": false,
		"a-b": false, "entity.guid": true, "tags.env_1": true,
	} {
		if got := validProperty(p); got != want {
			t.Errorf("validProperty(%q) = %v, want %v", p, got, want)
		}
	}
}
