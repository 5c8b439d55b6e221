package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim/restdouble"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// name_filter: like, checked the way an operator checks it on an account: verify's
// filter[name] probes, answered on the REST side with the exact substring match
// (recorded from a gateway with name_filter: read), against a gateway with
// name_filter: like. On the simulator nothing is missing (its LIKE finds each token of
// the pattern as a substring, a superset of REST's match; real NerdGraph's LIKE is
// documented only as fuzzy, which is why the setting is opt-in and verify is the
// check), each probe costs at most 2 NerdGraph round trips, and the answer declares
// the setting.
func TestVerifyNameLike(t *testing.T) {
	read := newEnv(t)
	rec := restdouble.Record(t, read.gw.URL)
	verifyRun(t, rec.URL, read.gw.URL)
	double := restdouble.Replay(t, rec.Answers())
	like := harness.StartWith(t, harness.Options{NameLike: true})
	rep := verifyRun(t, double.URL, like.Gateway.URL)
	if d := rep.Differences(); len(d) != 0 {
		t.Fatalf("name_filter: like differs from REST's match: %v", d)
	}
	probes := 0
	for _, x := range rep.Exchanges {
		if !strings.Contains(x.Path, "filter[name]=") {
			continue
		}
		probes++
		if x.Error != "" || x.RESTStatus != http.StatusOK || x.RoundTrips > 2 {
			t.Errorf("%s: %+v", x.Path, x)
		}
	}
	if probes < 4 {
		t.Fatalf("%d filter[name] probes, want at least 4 (2 applications)", probes)
	}
	e := &env{sim: like.Sim, gw: like.Gateway}
	r := e.get(t, "/v2/applications.json?filter[name]=onito", key1)
	if r.status != http.StatusOK || r.header.Get("X-V2bridge-Degraded") != "filter[name]: entity search name LIKE" ||
		!strings.Contains(string(r.body), "Uptime Monitor") {
		t.Fatalf("%d %q %s", r.status, r.header.Get("X-V2bridge-Degraded"), r.body)
	}
}
