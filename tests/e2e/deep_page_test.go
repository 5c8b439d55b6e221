package e2e

import (
	"strconv"
	"testing"
)

// A page number far past the account's last page answers REST's empty page at once,
// cold and warm, with and without filter[ids]: the gateway never walks toward it.
func TestDeepPageAnswersEmptyAtOnce(t *testing.T) {
	e := newEnv(t)
	e.get(t, "/v2/applications/314221522.json", key1) // account resolved
	for _, path := range []string{
		"/v2/applications.json?page=999999999",
		"/v2/applications.json?page=999999999", // the count is known now
		"/v2/applications.json?filter[ids]=314221522&page=50000000",
	} {
		r := e.get(t, path, key1)
		if r.status != 200 {
			t.Fatalf("%s: status %d: %s", path, r.status, r.body)
		}
		if got := decode(t, r); len(got.Applications) != 0 {
			t.Errorf("%s: %d applications, want none", path, len(got.Applications))
		}
		if n, _ := strconv.Atoi(r.header.Get("X-V2bridge-Upstream-Calls")); n > 1 {
			t.Errorf("%s: %d NerdGraph round trips, want at most 1", path, n)
		}
	}
}
