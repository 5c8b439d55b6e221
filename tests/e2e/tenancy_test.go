package e2e

import (
	"fmt"
	"sync"
	"testing"
)

// Two tenants (and a multi-account key switching accounts) hit the same routes with
// identical requests at once, caches warm: no answer ever holds another tenant's ids,
// and a show cached for one caller is never another's.
func TestTenantIsolationUnderConcurrency(t *testing.T) {
	e := newEnv(t)
	owned := map[string]map[int64]bool{"1000001": {}, "1000002": {}}
	for acct, key := range map[string]string{"1000001": key1, "1000002": key2} {
		for page := 1; page <= 2; page++ {
			for _, a := range decode(t, e.get(t, fmt.Sprintf("/v2/applications.json?page=%d", page), key)).Applications {
				owned[acct][a.ID] = true
			}
		}
	}
	type caller struct {
		key, account string
		hdr          []string
	}
	callers := []caller{
		{key1, "1000001", nil},
		{key2, "1000002", nil},
		{keyMulti, "1000001", []string{"X-Account-ID", "1000001"}},
		{keyMulti, "1000002", []string{"X-Account-ID", "1000002"}},
	}
	paths := []string{"/v2/applications.json", "/v2/applications.json?page=2", "/v2/applications.json?filter[name]=api",
		"/v2/applications.json?filter[name]=checkout&page=1"}
	// One application of each account, shown by every caller: the entity cache holds
	// a show per caller, so a caller of the other account keeps getting 404.
	shows := map[string]int64{}
	for acct, ids := range owned {
		for id := range ids {
			shows[acct] = id
			break
		}
	}
	var wg sync.WaitGroup
	for round := 0; round < 5; round++ {
		for _, c := range callers {
			for acct, id := range shows {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := e.get(t, fmt.Sprintf("/v2/applications/%d.json", id), c.key, c.hdr...)
					want := 404
					if acct == c.account {
						want = 200
					}
					if r.status != want {
						t.Errorf("show of %s's app %d as %s: %d, want %d", acct, id, c.account, r.status, want)
					}
				}()
			}
		}
		for _, c := range callers {
			for _, p := range paths {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := e.get(t, p, c.key, c.hdr...)
					if r.status != 200 {
						t.Errorf("%s as %s: %d", p, c.account, r.status)
						return
					}
					for _, a := range decode(t, r).Applications {
						if !owned[c.account][a.ID] {
							t.Errorf("%s as %s returned app %d of another account", p, c.account, a.ID)
						}
					}
				}()
			}
		}
	}
	wg.Wait()
}
