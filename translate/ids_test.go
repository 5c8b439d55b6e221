package translate

import (
	"context"
	"encoding/json"
	"math/rand/v2"
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

func TestRawFacetStr(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`"web-01"`, "web-01"},
		{`"caf\u00e9 \"x\" \\ y"`, `café "x" \ y`},
		{`"café"`, "café"},
		{`""`, ""},
		{`42`, ""},
		{`null`, ""},
	}
	for _, tt := range tests {
		if got := rawFacet(tt.in).str(); got != tt.want {
			t.Errorf("rawFacet(%s).str() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPlainIntAgreesWithParseInt: where plainInt reads a number, it is strconv.ParseInt's;
// where it does not, rawFacet.int falls back to strconv. Signs, zeros, 18 and 19
// digits, bytes around the digits.
func TestPlainIntAgreesWithParseInt(t *testing.T) {
	ins := []string{"0", "7", "-7", "+7", "007", "-0", "", "-", "12a", "a12", " 1", "1 ", "1.0", "1e3",
		"999999999999999999", "-999999999999999999", "1000000000000000000", "9223372036854775807", "/", ":"}
	r := rand.New(rand.NewPCG(7, 7))
	for range 5000 {
		b := make([]byte, r.IntN(21))
		for i := range b {
			b[i] = "0123456789-+:/ ."[r.IntN(16)]
		}
		ins = append(ins, string(b))
	}
	read := 0
	for _, in := range ins {
		n, ok := plainInt([]byte(in))
		if !ok {
			continue
		}
		read++
		want, err := strconv.ParseInt(in, 10, 64)
		if err != nil || want != n {
			t.Fatalf("plainInt(%q) = %d; strconv: %d, %v", in, n, want, err)
		}
	}
	if read < 100 {
		t.Fatalf("only %d inputs read: the test shows little", read)
	}
}

// BenchmarkInventoryParse reads an account-wide inventory of 222 applications of one
// to three hosts and agents (the demo account's list page 1), shaped as NerdGraph
// answers it, into the applications' hosts, instances and last reports.
func BenchmarkInventoryParse(b *testing.B) {
	rows := make([]map[string]any, 222)
	for i := range rows {
		app := strconv.Itoa(300000000 + i*7919)
		var hosts, agents []any
		for k := range 1 + i%3 {
			hosts = append(hosts, "worker-"+strconv.Itoa((i+k)%17)+".dc1.example.net")
			agents = append(agents, strconv.Itoa(800000000+(i*3+k)*104729))
		}
		rows[i] = invRow(app, hosts, agents, float64(1795175940000+i*1000))
	}
	raw, err := json.Marshal(rows)
	if err != nil {
		b.Fatal(err)
	}
	tr := New(nil, Options{})
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if inv, read := parseInventory(context.Background(), tr, raw); read.rows != 222 || len(inv) != 222 {
			b.Fatalf("%d rows, %d applications", read.rows, len(inv))
		}
	}
}
