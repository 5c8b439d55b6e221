package fleet

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
)

// A push is applied once per replica and number: resent (its answer lost), it is not
// counted again; a later number, or another replica's, is.
func TestAddUsageOnce(t *testing.T) {
	m := miniredis.RunT(t)
	s := open(t, m)
	ctx := context.Background()
	row := []UsageRow{{Caller: "abcd1234", Agent: "curl", Route: "applications.list", Count: 3, Errors: 1, LastSeen: 100}}
	for i, tc := range []struct {
		replica string
		seq     uint64
		want    int64
	}{{"a", 1, 3}, {"a", 1, 3}, {"a", 2, 6}, {"a", 1, 6}, {"b", 1, 9}, {"b", 2, 12}} {
		if err := s.AddUsage(ctx, tc.replica, tc.seq, row); err != nil {
			t.Fatal(err)
		}
		rows, err := s.Usage(ctx)
		if err != nil || len(rows) != 1 || rows[0].Count != tc.want {
			t.Fatalf("push %d (%s #%d): %+v %v, want count %d", i, tc.replica, tc.seq, rows, err, tc.want)
		}
	}
	if ttl := m.TTL("t:usage-seq"); ttl <= 0 {
		t.Fatalf("push numbers kept without expiry (%s)", ttl)
	}
}
