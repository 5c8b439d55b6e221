package fleet

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// The fleet's memory of recent deployments: in order, the last maxRecentDeployments
// kept, with the TTL, per application.
func TestRecentDeployments(t *testing.T) {
	m := miniredis.RunT(t)
	a, b := open(t, m), open(t, m)
	ctx := context.Background()
	for i := 0; i < maxRecentDeployments+2; i++ {
		if err := a.RememberDeployment(ctx, "app", []byte(strconv.Itoa(i)), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	got, err := b.RecalledDeployments(ctx, "app")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != maxRecentDeployments || string(got[0]) != "2" || string(got[len(got)-1]) != strconv.Itoa(maxRecentDeployments+1) {
		t.Fatalf("%d recalled, first %q last %q", len(got), got[0], got[len(got)-1])
	}
	if ttl := m.TTL("t:deploys:app"); ttl <= 0 || ttl > time.Minute {
		t.Errorf("ttl %v", ttl)
	}
	none, err := b.RecalledDeployments(ctx, "other")
	if err != nil || len(none) != 0 {
		t.Errorf("another application: %q, %v", none, err)
	}
}
