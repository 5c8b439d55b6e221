package sim_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/sim"
)

const entityQuery = `query($g: EntityGuid!) { actor { entity(guid: $g) { guid name accountId domain type } } }`

type entityOut struct {
	Actor struct {
		Entity *struct {
			GUID      string
			Name      string
			AccountID int
			Domain    string
			Type      string
		}
	}
}

func TestEntityByGUID(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	one := apps(t, d, acctOne)[0]
	two := apps(t, d, acctTwo)[0]
	oneGUID := appGUID(acctOne, one.ID)
	tests := []struct {
		name     string
		key      string
		guid     string
		wantName string // "" = null
		wantErr  string
	}{
		{name: "own application", key: keyOne, guid: oneGUID, wantName: one.Name},
		{name: "padded guid", key: keyOne, guid: oneGUID + strings.Repeat("=", (4-len(oneGUID)%4)%4), wantName: one.Name},
		{name: "other account's application", key: keyOne, guid: appGUID(acctTwo, two.ID)},
		{name: "other account's application, account two key", key: keyTwo, guid: oneGUID},
		{name: "multi key sees account one", key: keyMulti, guid: oneGUID, wantName: one.Name},
		{name: "multi key sees account two", key: keyMulti, guid: appGUID(acctTwo, two.ID), wantName: two.Name},
		{name: "id of account two under account one's guid", key: keyMulti, guid: appGUID(acctOne, two.ID)},
		{name: "unknown id", key: keyOne, guid: appGUID(acctOne, 1)},
		{name: "malformed guid", key: keyOne, guid: "not a guid!", wantErr: "INVALID_INPUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out entityOut
			errs := h.query(t, tt.key, entityQuery, map[string]any{"g": tt.guid}, &out)
			if tt.wantErr != "" {
				if !hasError(errs, tt.wantErr, "") || out.Actor.Entity != nil {
					t.Fatalf("entity %+v errors %+v, want null and %s", out.Actor.Entity, errs, tt.wantErr)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %+v", errs)
			}
			switch {
			case tt.wantName == "" && out.Actor.Entity != nil:
				t.Fatalf("entity %+v, want null", out.Actor.Entity)
			case tt.wantName != "" && (out.Actor.Entity == nil || out.Actor.Entity.Name != tt.wantName):
				t.Fatalf("entity %+v, want %q", out.Actor.Entity, tt.wantName)
			case tt.wantName != "" && (out.Actor.Entity.Domain != "APM" || out.Actor.Entity.Type != "APPLICATION"):
				t.Fatalf("entity %+v, want APM APPLICATION", out.Actor.Entity)
			}
		})
	}
}

func TestEntities(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	ones, twos := apps(t, d, acctOne), apps(t, d, acctTwo)
	guids := func(n int) []string {
		var g []string
		for _, a := range ones[:n] {
			g = append(g, appGUID(acctOne, a.ID))
		}
		return g
	}
	mixed := []string{appGUID(acctTwo, twos[0].ID), appGUID(acctOne, ones[1].ID), appGUID(acctOne, 1), appGUID(acctOne, ones[0].ID), appGUID(acctOne, ones[1].ID)}
	tests := []struct {
		name    string
		key     string
		guids   []string
		want    []string
		wantErr bool
	}{
		{name: "25 guids", key: keyOne, guids: guids(25), want: guids(25)},
		{name: "26 guids", key: keyOne, guids: guids(26), wantErr: true},
		{name: "unreachable, unknown and repeated left out", key: keyOne, guids: mixed, want: []string{mixed[1], mixed[3]}},
		{name: "multi key", key: keyMulti, guids: mixed, want: []string{mixed[0], mixed[1], mixed[3]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out struct {
				Actor struct {
					Entities []struct{ GUID string }
				}
			}
			errs := h.query(t, tt.key, `query($g: [EntityGuid]!) { actor { entities(guids: $g) { guid } } }`, map[string]any{"g": tt.guids}, &out)
			if tt.wantErr {
				if !hasError(errs, "INVALID_INPUT", "at most 25") {
					t.Fatalf("errors %+v, want the 25-guid limit", errs)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %+v", errs)
			}
			var got []string
			for _, e := range out.Actor.Entities {
				got = append(got, e.GUID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("guids %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApplicationFields(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	app := findApp(t, d, acctOne, func(a sim.APMApplication) bool {
		return a.Reporting && a.Browser != nil && a.Browser.Summary != nil && len(a.Instances) >= 2
	})
	const q = `query($g: EntityGuid!, $host: String) {
	  actor { entity(guid: $g) {
	    guid accountId name reporting alertSeverity permalink entityType lastReportingChangeAt
	    account { id name }
	    tags { key values }
	    ... on ApmApplicationEntity {
	      applicationId language
	      settings { apdexTarget serverSideConfig }
	      apmSettings { apmConfig { apdexTarget useServerSideConfig } }
	      apmSummary { apdexScore errorRate hostCount instanceCount throughput webThroughput nonWebThroughput responseTimeAverage }
	      apmBrowserSummary { pageLoadThroughput pageLoadTimeAverage }
	      all: applicationInstances { details { id host hostDisplayName instanceName language name } environmentAttributes { attribute value } }
	      one: applicationInstances(host: $host) { details { id host } }
	      browser: relatedEntities(filter: {entityDomainTypes: {include: [{domain: "BROWSER", type: "APPLICATION"}]}}) {
	        nextCursor
	        results { type source { guid entity { guid } } target { accountId guid entity { guid
	          ... on BrowserApplicationEntityOutline { applicationId servingApmApplicationId settings { apdexTarget } } } } }
	      }
	      none: relatedEntities(filter: {entityDomainTypes: {include: [{domain: "MOBILE", type: "APPLICATION"}]}}) { results { type } }
	    }
	  } }
	}`
	var out struct {
		Actor struct {
			Entity struct {
				GUID, Name, Permalink, AlertSeverity, EntityType, Language string
				AccountID, ApplicationID                                   int
				LastReportingChangeAt                                      int64
				Reporting                                                  bool
				Account                                                    struct{ ID int }
				Tags                                                       []struct {
					Key    string
					Values []string
				}
				Settings struct {
					ApdexTarget      float64
					ServerSideConfig bool
				}
				ApmSettings struct {
					ApmConfig struct {
						ApdexTarget         float64
						UseServerSideConfig bool
					}
				}
				ApmSummary struct {
					HostCount, InstanceCount              int
					Throughput, WebThroughput, ApdexScore float64
					NonWebThroughput, ResponseTimeAverage float64
				}
				ApmBrowserSummary struct{ PageLoadThroughput, PageLoadTimeAverage float64 }
				All               []struct {
					Details struct {
						ID, Host, HostDisplayName, InstanceName, Language, Name string
					}
					EnvironmentAttributes []struct{ Attribute, Value string }
				}
				One     []struct{ Details struct{ ID, Host string } }
				Browser struct {
					NextCursor *string
					Results    []struct {
						Type   string
						Source struct{ GUID string }
						Target struct {
							AccountID int
							GUID      string
							Entity    struct {
								ApplicationID, ServingApmApplicationID int
								Settings                               struct{ ApdexTarget float64 }
							}
						}
					}
				}
				None struct{ Results []any }
			}
		}
	}
	host := app.Instances[1].Host
	h.mustQuery(t, keyOne, q, map[string]any{"g": appGUID(acctOne, app.ID), "host": host}, &out)
	e := out.Actor.Entity
	if e.Name != app.Name || e.ApplicationID != app.ID || e.AccountID != acctOne || e.Account.ID != acctOne || e.Language != app.Language {
		t.Errorf("identity fields %+v", e)
	}
	if e.EntityType != "APM_APPLICATION_ENTITY" || e.AlertSeverity != app.AlertSeverity || !e.Reporting || e.LastReportingChangeAt != app.LastReportingChangeAt.UnixMilli() {
		t.Errorf("state fields %+v", e)
	}
	if !strings.HasSuffix(e.Permalink, e.GUID) {
		t.Errorf("permalink %q does not end with the guid", e.Permalink)
	}
	tags := map[string]string{}
	for _, tg := range e.Tags {
		tags[tg.Key] = strings.Join(tg.Values, ",")
	}
	if tags["language"] != app.Language || tags["account"] != "Demo Account One" || tags["accountId"] != strconv.Itoa(acctOne) {
		t.Errorf("tags %v", tags)
	}
	if e.Settings.ApdexTarget != app.ApdexTarget || e.Settings.ServerSideConfig != app.ServerSideConfig ||
		e.ApmSettings.ApmConfig.ApdexTarget != app.ApdexTarget || e.ApmSettings.ApmConfig.UseServerSideConfig != app.ServerSideConfig {
		t.Errorf("settings %+v %+v", e.Settings, e.ApmSettings)
	}
	s := app.Summary
	if e.ApmSummary.InstanceCount != len(app.Instances) || e.ApmSummary.Throughput != s.WebThroughput+s.NonWebThroughput || e.ApmSummary.ApdexScore != s.ApdexScore {
		t.Errorf("summary %+v, data %+v", e.ApmSummary, s)
	}
	if e.ApmBrowserSummary.PageLoadTimeAverage != app.Browser.Summary.PageLoadTimeAverage {
		t.Errorf("browser summary %+v", e.ApmBrowserSummary)
	}
	if len(e.All) != len(app.Instances) {
		t.Fatalf("%d instances, want %d", len(e.All), len(app.Instances))
	}
	for i, in := range e.All {
		if in.Details.ID != strconv.FormatInt(app.Instances[i].ID, 10) || in.Details.Host != app.Instances[i].Host ||
			in.Details.Language != app.Language || in.Details.Name != app.Name || in.Details.HostDisplayName == "" || in.Details.InstanceName == "" {
			t.Errorf("instance %d: %+v", i, in.Details)
		}
		if len(in.EnvironmentAttributes) != len(app.Instances[i].Environment) {
			t.Errorf("instance %d: %d attributes, want %d", i, len(in.EnvironmentAttributes), len(app.Instances[i].Environment))
		}
	}
	for _, in := range e.One {
		if in.Details.Host != host {
			t.Errorf("host filter %q returned %+v", host, in.Details)
		}
	}
	if len(e.One) == 0 {
		t.Errorf("host filter %q returned nothing", host)
	}
	if len(e.Browser.Results) != 1 || e.Browser.NextCursor != nil {
		t.Fatalf("browser relation %+v", e.Browser)
	}
	r := e.Browser.Results[0]
	if r.Type != "SERVES" || r.Source.GUID != e.GUID || r.Target.AccountID != acctOne || r.Target.GUID != guid(acctOne, "BROWSER", "APPLICATION", app.Browser.ID) {
		t.Errorf("edge %+v", r)
	}
	if r.Target.Entity.ApplicationID != app.Browser.ID || r.Target.Entity.ServingApmApplicationID != app.ID || r.Target.Entity.Settings.ApdexTarget != app.Browser.ApdexTarget {
		t.Errorf("browser vertex %+v", r.Target.Entity)
	}
	if len(e.None.Results) != 0 {
		t.Errorf("MOBILE filter returned %v", e.None.Results)
	}
}

func TestBrowserApplication(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	app := findApp(t, d, acctOne, func(a sim.APMApplication) bool { return a.Browser != nil })
	const q = `query($g: EntityGuid!) { actor { entity(guid: $g) {
	  __typename name domain type reporting
	  ... on BrowserApplicationEntity {
	    applicationId servingApmApplicationId agentInstallType
	    settings { apdexTarget }
	    browserSettings { browserMonitoring { loader } sessionTrace { enabled } }
	    browserProperties { jsLoaderScript jsConfig }
	    apm: relatedEntities(filter: {direction: INBOUND}) { results { source { guid } } }
	    out: relatedEntities(filter: {direction: OUTBOUND}) { results { source { guid } } }
	  } } } }`
	var out struct {
		Actor struct {
			Entity struct {
				Typename                               string `json:"__typename"`
				Name, Domain, Type, AgentInstallType   string
				Reporting                              bool
				ApplicationID, ServingApmApplicationID int
				Settings                               struct{ ApdexTarget float64 }
				BrowserSettings                        struct{ BrowserMonitoring struct{ Loader string } }
				BrowserProperties                      struct {
					JsLoaderScript string
					JsConfig       map[string]any
				}
				Apm, Out struct {
					Results []struct{ Source struct{ GUID string } }
				}
			}
		}
	}
	h.mustQuery(t, keyOne, q, map[string]any{"g": guid(acctOne, "BROWSER", "APPLICATION", app.Browser.ID)}, &out)
	e := out.Actor.Entity
	if e.Typename != "BrowserApplicationEntity" || e.AgentInstallType == "" {
		t.Errorf("__typename %q agentInstallType %q", e.Typename, e.AgentInstallType)
	}
	if e.Domain != "BROWSER" || e.Type != "APPLICATION" || e.ApplicationID != app.Browser.ID || e.ServingApmApplicationID != app.ID || e.Reporting != app.Reporting {
		t.Errorf("browser entity %+v", e)
	}
	if e.BrowserSettings.BrowserMonitoring.Loader != app.Browser.Loader || e.Settings.ApdexTarget != app.Browser.ApdexTarget {
		t.Errorf("browser settings %+v", e)
	}
	script := e.BrowserProperties.JsLoaderScript
	for _, want := range []string{"<script", `licenseKey:"NRJS-`, `applicationID:"` + strconv.Itoa(app.Browser.ID) + `"`, "</script>"} {
		if !strings.Contains(script, want) {
			t.Errorf("jsLoaderScript lacks %q: %s", want, script)
		}
	}
	if e.BrowserProperties.JsConfig["applicationID"] != strconv.Itoa(app.Browser.ID) {
		t.Errorf("jsConfig %v", e.BrowserProperties.JsConfig)
	}
	if len(e.Apm.Results) != 1 || e.Apm.Results[0].Source.GUID != appGUID(acctOne, app.ID) || len(e.Out.Results) != 0 {
		t.Errorf("relations inbound %+v outbound %+v", e.Apm, e.Out)
	}
}

func TestNonReportingApplication(t *testing.T) {
	h := demoHarness(t)
	d := loadDemo(t)
	app := findApp(t, d, acctOne, func(a sim.APMApplication) bool { return !a.Reporting })
	var out struct {
		Actor struct {
			Entity struct {
				Reporting            bool
				ApmSummary           *struct{ Throughput float64 }
				ApplicationInstances []any
			}
		}
	}
	h.mustQuery(t, keyOne, `query($g: EntityGuid!) { actor { entity(guid: $g) { reporting ... on ApmApplicationEntity { apmSummary { throughput } applicationInstances { details { id } } } } } }`,
		map[string]any{"g": appGUID(acctOne, app.ID)}, &out)
	if e := out.Actor.Entity; e.Reporting || e.ApmSummary != nil || len(e.ApplicationInstances) != 0 {
		t.Errorf("non-reporting app %+v", e)
	}
}
