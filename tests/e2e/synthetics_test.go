package e2e

import (
	"bytes"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/configs"
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/sim"
	"github.com/v2bridge/v2bridge/translate"
)

// The synthetics condition list is served from asNrqlConditionsSearch (sourceProduct
// SYNTHETICS) when retained_alerts translates: the demo data plus one synthetics
// condition (added here, the shipped demo has none), REST's wrapper and fields.
func TestSyntheticsConditionList(t *testing.T) {
	const added = `    legacyConditions:
      - id: 6399
        policyId: 1001
        sourceProduct: SYNTHETICS
        name: "Home page check failed"
        type: STATIC
        enabled: true
        runbookUrl: "https://runbooks.example.com/home"
        nrql: {query: "SELECT count(*) FROM SyntheticCheck WHERE result = 'FAILED'"}
        terms:
          - {priority: CRITICAL, operator: ABOVE, threshold: 0, thresholdDuration: 300, thresholdOccurrences: AT_LEAST_ONCE}
`
	demo := configs.DemoData()
	if !bytes.Contains(demo, []byte("    legacyConditions:\n")) {
		t.Fatal("demo data has no legacyConditions section")
	}
	data, err := sim.ParseData(bytes.Replace(demo, []byte("    legacyConditions:\n"), []byte(added), 1))
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return clock }
	s, err := sim.NewDemo(data, sim.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	simSrv := httptest.NewServer(s)
	defer simSrv.Close()
	tr := translate.New(ng.NewClient(simSrv.URL+sim.Path, ng.Options{}), translate.Options{Now: now})
	gw := httptest.NewServer(gateway.New(gateway.Config{Now: now}, tr, nil).Handler())
	defer gw.Close()
	e := &env{sim: s, gw: gw}

	want := `{"synthetics_conditions":[{"id":6399,"name":"Home page check failed","runbook_url":"https://runbooks.example.com/home","enabled":true}]}`
	if r := e.get(t, "/v2/alerts_synthetics_conditions.json?policy_id=1001", key1); r.status != 200 || string(r.body) != want {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// The other policies have none; the legacy list does not show it.
	if r := e.get(t, "/v2/alerts_synthetics_conditions.json?policy_id=1002", key1); string(r.body) != `{"synthetics_conditions":[]}` {
		t.Fatalf("%s", r.body)
	}
	if r := e.get(t, "/v2/alerts_conditions.json?policy_id=1001", key1); bytes.Contains(r.body, []byte("6399")) {
		t.Fatalf("alerts_conditions lists the synthetics condition: %s", r.body)
	}
	if r := e.get(t, "/v2/alerts_synthetics_conditions.json", key1); r.status != 400 {
		t.Fatalf("without policy_id: %d %s", r.status, r.body)
	}
}
