package clientcompat

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/newrelic/newrelic-client-go/v2/pkg/alerts"
	"github.com/newrelic/newrelic-client-go/v2/pkg/apm"
	"github.com/newrelic/newrelic-client-go/v2/pkg/config"
	nrerrors "github.com/newrelic/newrelic-client-go/v2/pkg/errors"
	"github.com/newrelic/newrelic-client-go/v2/pkg/plugins"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// clientCall is one function of newrelic-client-go that calls a REST v2 path. want is
// the status the gateway answers by design (0: the call works); source is where that
// answer comes from, and must appear in the v2 error title the client surfaces.
type clientCall struct {
	name   string
	call   func() error
	want   int
	source string
}

// everyRESTCall is every exported function of newrelic-client-go (the version pinned
// in go.mod) whose request goes to a REST v2 path (config.Region().RestURL), in its
// source order: pkg/apm, pkg/alerts, pkg/plugins. The WithContext twins send the same
// request.
func everyRESTCall(t *testing.T) []clientCall {
	t.Helper()
	env := harness.Start(t, gateway.Config{})
	cfg := config.New()
	for _, opt := range []config.ConfigOption{config.ConfigPersonalAPIKey(harness.Key1), config.ConfigBaseURL(env.Gateway.URL + "/v2"), config.ConfigLogLevel("error")} {
		if err := opt(&cfg); err != nil {
			t.Fatal(err)
		}
	}
	a, al, pl := apm.New(cfg), alerts.New(cfg), plugins.New(cfg)
	from, to := harness.Clock.Add(-30*time.Minute), harness.Clock
	first := func(n int, err error) error {
		if err == nil && n == 0 {
			return errors.New("empty answer")
		}
		return err
	}
	var nrqlID, policyID int
	const (
		labels      = "Labels were retired"
		plugin      = "Plugins product was decommissioned"
		components  = "Plugin components were decommissioned"
		channels    = "Alert channels are not translated"
		links       = "Policy-channel links are not translated"
		synthetics  = "Synthetics alert conditions"
		location    = "Multi-location synthetics conditions"
		legacy      = "NerdGraph has no mutation for legacy"
		immutable   = "change tracking events are immutable"
		pluginConds = "the Plugins product was decommissioned"
	)
	return []clientCall{
		{name: "apm.ListApplications", call: func() error { l, err := a.ListApplications(nil); return first(len(l), err) }},
		{name: "apm.GetApplication", call: func() error { _, err := a.GetApplication(app); return err }},
		{name: "apm.UpdateApplication", call: func() error {
			_, err := a.UpdateApplication(app, apm.UpdateApplicationParams{Name: "client-go renamed", Settings: apm.ApplicationSettings{AppApdexThreshold: 0.5}})
			return err
		}},
		{name: "apm.DeleteApplication", call: func() error { _, err := a.DeleteApplication(439883550); return err }},
		{name: "apm.GetMetricNames", call: func() error {
			l, err := a.GetMetricNames(app, apm.MetricNamesParams{Name: "Apdex"})
			return first(len(l), err)
		}},
		{name: "apm.GetMetricData", call: func() error {
			l, err := a.GetMetricData(app, apm.MetricDataParams{Names: []string{"HttpDispatcher"}, Values: []string{"call_count"}, From: &from, To: &to})
			return first(len(l), err)
		}},
		{name: "apm.ListApplicationInstances", call: func() error { l, err := a.ListApplicationInstances(app, nil); return first(len(l), err) }},
		{name: "apm.GetApplicationInstance", call: func() error {
			l, err := a.ListApplicationInstances(app, nil)
			if err != nil || len(l) == 0 {
				return fmt.Errorf("instances: %d, %w", len(l), err)
			}
			_, err = a.GetApplicationInstance(app, l[0].ID)
			return err
		}},
		{name: "apm.ListLabels", call: func() error { _, err := a.ListLabels(); return err }, want: 410, source: labels},
		{name: "apm.GetLabel", call: func() error { _, err := a.GetLabel("Team:Ops"); return err }, want: 410, source: labels},
		{name: "apm.CreateLabel", call: func() error { _, err := a.CreateLabel(apm.Label{Category: "Team", Name: "Ops"}); return err }, want: 410, source: labels},
		{name: "apm.DeleteLabel", call: func() error { _, err := a.DeleteLabel("Team:Ops"); return err }, want: 410, source: labels},
		{name: "apm.ListKeyTransactions", call: func() error { l, err := a.ListKeyTransactions(nil); return first(len(l), err) }},
		{name: "apm.GetKeyTransaction", call: func() error { _, err := a.GetKeyTransaction(3001); return err }},
		{name: "apm.CreateDeployment", call: func() error { _, err := a.CreateDeployment(app, apm.Deployment{Revision: "cg-1"}); return err }},
		{name: "apm.ListDeployments", call: func() error { l, err := a.ListDeployments(app); return first(len(l), err) }},
		{name: "apm.DeleteDeployment", call: func() error {
			l, err := a.ListDeployments(app)
			if err != nil || len(l) == 0 {
				return fmt.Errorf("deployments: %d, %w", len(l), err)
			}
			_, err = a.DeleteDeployment(app, l[0].ID)
			return err
		}, want: 501, source: immutable},

		{name: "alerts.ListChannels", call: func() error { _, err := al.ListChannels(); return err }, want: 501, source: channels},
		{name: "alerts.GetChannel", call: func() error { _, err := al.GetChannel(1); return err }, want: 501, source: channels},
		{name: "alerts.CreateChannel", call: func() error {
			_, err := al.CreateChannel(alerts.Channel{Name: "ops", Type: alerts.ChannelTypes.Email, Configuration: alerts.ChannelConfiguration{Recipients: "ops@example.com"}})
			return err
		}, want: 501, source: channels},
		{name: "alerts.DeleteChannel", call: func() error { _, err := al.DeleteChannel(1); return err }, want: 501, source: channels},
		{name: "alerts.UpdatePolicyChannels", call: func() error { _, err := al.UpdatePolicyChannels(1001, []int{1}); return err }, want: 501, source: links},
		{name: "alerts.DeletePolicyChannel", call: func() error { _, err := al.DeletePolicyChannel(1001, 1); return err }, want: 501, source: links},
		{name: "alerts.ListMultiLocationSyntheticsConditions", call: func() error { _, err := al.ListMultiLocationSyntheticsConditions(1001); return err },
			want: 501, source: location},
		{name: "alerts.GetMultiLocationSyntheticsCondition", call: func() error { _, err := al.GetMultiLocationSyntheticsCondition(1001, 1); return err },
			want: 501, source: location},
		{name: "alerts.CreateMultiLocationSyntheticsCondition", call: func() error {
			_, err := al.CreateMultiLocationSyntheticsCondition(alerts.MultiLocationSyntheticsCondition{Name: "loc", Enabled: true, Entities: []string{"m1"},
				Terms: []alerts.MultiLocationSyntheticsConditionTerm{{Priority: "critical", Threshold: 2}}}, 1001)
			return err
		}, want: 501, source: location},
		{name: "alerts.UpdateMultiLocationSyntheticsCondition", call: func() error {
			_, err := al.UpdateMultiLocationSyntheticsCondition(alerts.MultiLocationSyntheticsCondition{ID: 1, Name: "loc"})
			return err
		}, want: 501, source: location},
		// client-go deletes a location failure condition at /alerts_conditions/{id}.
		{name: "alerts.DeleteMultiLocationSyntheticsCondition", call: func() error { _, err := al.DeleteMultiLocationSyntheticsCondition(1); return err },
			want: 501, source: legacy},
		{name: "alerts.ListSyntheticsConditions", call: func() error { _, err := al.ListSyntheticsConditions(1001); return err }},
		{name: "alerts.GetSyntheticsCondition", call: func() error {
			// client-go reads the list and picks the id: the demo holds no synthetics
			// condition, so the answer is client-go's NotFound, as from REST.
			_, err := al.GetSyntheticsCondition(1001, 6399)
			if nf := (*nrerrors.NotFound)(nil); errors.As(err, &nf) {
				return nil
			}
			return fmt.Errorf("want NotFound, got %w", err)
		}},
		{name: "alerts.CreateSyntheticsCondition", call: func() error {
			_, err := al.CreateSyntheticsCondition(1001, alerts.SyntheticsCondition{Name: "synth", Enabled: true, MonitorID: "m1"})
			return err
		}, want: 501, source: synthetics},
		{name: "alerts.UpdateSyntheticsCondition", call: func() error {
			_, err := al.UpdateSyntheticsCondition(alerts.SyntheticsCondition{ID: 1, Name: "synth", MonitorID: "m1"})
			return err
		}, want: 501, source: synthetics},
		{name: "alerts.DeleteSyntheticsCondition", call: func() error { _, err := al.DeleteSyntheticsCondition(1); return err }, want: 501, source: synthetics},
		{name: "alerts.ListIncidents", call: func() error { l, err := al.ListIncidents(false, false); return first(len(l), err) }},
		{name: "alerts.AcknowledgeIncident", call: func() error { return incidentVerb(al, false) }},
		{name: "alerts.CloseIncident", call: func() error { return incidentVerb(al, true) }},
		{name: "alerts.ListNrqlConditions", call: func() error { l, err := al.ListNrqlConditions(1001); return first(len(l), err) }},
		{name: "alerts.GetNrqlCondition", call: func() error { _, err := al.GetNrqlCondition(1001, 6103); return err }},
		{name: "alerts.CreateNrqlCondition", call: func() error {
			c, err := al.CreateNrqlCondition(1002, alerts.NrqlCondition{Name: "cg", Enabled: true, Type: "static",
				Nrql:  alerts.NrqlQuery{Query: "SELECT count(*) FROM Transaction"},
				Terms: []alerts.ConditionTerm{{Duration: 5, Operator: "below_or_equals", Priority: "critical", Threshold: 1, TimeFunction: "all"}}})
			if c != nil {
				nrqlID = c.ID
			}
			return err
		}},
		{name: "alerts.UpdateNrqlCondition", call: func() error {
			// Read and written back as read: the demo's 6103 carries above_or_equals.
			c, err := al.GetNrqlCondition(1001, 6103)
			if err != nil {
				return err
			}
			_, err = al.UpdateNrqlCondition(*c)
			return err
		}},
		{name: "alerts.DeleteNrqlCondition", call: func() error { _, err := al.DeleteNrqlCondition(nrqlID); return err }},
		{name: "alerts.ListConditions", call: func() error { l, err := al.ListConditions(1004); return first(len(l), err) }},
		{name: "alerts.GetCondition", call: func() error {
			l, err := al.ListConditions(1004)
			if err != nil || len(l) == 0 {
				return fmt.Errorf("conditions: %d, %w", len(l), err)
			}
			_, err = al.GetCondition(1004, l[0].ID)
			return err
		}},
		{name: "alerts.CreateCondition", call: func() error {
			_, err := al.CreateCondition(1004, alerts.Condition{Name: "legacy", Type: "apm_app_metric", Metric: "apdex", Entities: []string{"314221522"},
				Terms: []alerts.ConditionTerm{{Duration: 5, Operator: "below", Priority: "critical", Threshold: 0.7, TimeFunction: "all"}}})
			return err
		}, want: 501, source: legacy},
		{name: "alerts.UpdateCondition", call: func() error { _, err := al.UpdateCondition(alerts.Condition{ID: 1, Name: "legacy"}); return err },
			want: 501, source: legacy},
		{name: "alerts.DeleteCondition", call: func() error { _, err := al.DeleteCondition(1); return err }, want: 501, source: legacy},
		{name: "alerts.ListPluginsConditions", call: func() error { _, err := al.ListPluginsConditions(1001); return err }, want: 501, source: pluginConds},
		{name: "alerts.GetPluginsCondition", call: func() error { _, err := al.GetPluginsCondition(1001, 1); return err }, want: 501, source: pluginConds},
		{name: "alerts.CreatePluginsCondition", call: func() error {
			_, err := al.CreatePluginsCondition(1001, alerts.PluginsCondition{Name: "plugin", Metric: "m"})
			return err
		}, want: 501, source: pluginConds},
		{name: "alerts.UpdatePluginsCondition", call: func() error { _, err := al.UpdatePluginsCondition(alerts.PluginsCondition{ID: 1}); return err },
			want: 501, source: pluginConds},
		{name: "alerts.DeletePluginsCondition", call: func() error { _, err := al.DeletePluginsCondition(1); return err }, want: 501, source: pluginConds},
		{name: "alerts.ListPolicies", call: func() error { l, err := al.ListPolicies(nil); return first(len(l), err) }},
		{name: "alerts.GetPolicy", call: func() error { _, err := al.GetPolicy(1001); return err }},
		{name: "alerts.CreatePolicy", call: func() error {
			p, err := al.CreatePolicy(alerts.Policy{Name: "cg", IncidentPreference: alerts.IncidentPreferenceTypes.PerPolicy})
			if p != nil {
				policyID = p.ID
			}
			return err
		}},
		{name: "alerts.UpdatePolicy", call: func() error {
			_, err := al.UpdatePolicy(alerts.Policy{ID: policyID, Name: "cg renamed", IncidentPreference: alerts.IncidentPreferenceTypes.PerPolicy})
			return err
		}},
		{name: "alerts.DeletePolicy", call: func() error { _, err := al.DeletePolicy(policyID); return err }},
		{name: "alerts.ListAlertEvents", call: func() error { l, err := al.ListAlertEvents(nil); return first(len(l), err) }},

		{name: "plugins.ListPlugins", call: func() error { _, err := pl.ListPlugins(nil); return err }, want: 410, source: plugin},
		{name: "plugins.GetPlugin", call: func() error { _, err := pl.GetPlugin(1, nil); return err }, want: 410, source: plugin},
		{name: "plugins.ListComponents", call: func() error { _, err := pl.ListComponents(nil); return err }, want: 410, source: components},
		{name: "plugins.GetComponent", call: func() error { _, err := pl.GetComponent(1); return err }, want: 410, source: components},
		{name: "plugins.ListComponentMetrics", call: func() error { _, err := pl.ListComponentMetrics(1, nil); return err }, want: 410, source: components},
		{name: "plugins.GetComponentMetricData", call: func() error {
			_, err := pl.GetComponentMetricData(1, &plugins.GetComponentMetricDataParams{Names: []string{"m"}})
			return err
		}, want: 410, source: components},
	}
}

// incidentVerb acknowledges (or closes) the newest open incident.
func incidentVerb(al alerts.Alerts, closeIt bool) error {
	open, err := al.ListIncidents(true, false)
	if err != nil || len(open) == 0 {
		return fmt.Errorf("open incidents: %d, %w", len(open), err)
	}
	var in *alerts.Incident
	if closeIt {
		in, err = al.CloseIncident(open[0].ID)
	} else {
		in, err = al.AcknowledgeIncident(open[0].ID)
	}
	if err == nil && (in.ID != open[0].ID || (in.ClosedAt != nil) != closeIt) {
		return fmt.Errorf("answered %+v for incident %d", in, open[0].ID)
	}
	return err
}

// statusOf is the HTTP status client-go reports in err (0: none).
func statusOf(err error) int {
	var nf *nrerrors.NotFound
	if errors.As(err, &nf) {
		return 404
	}
	var n int
	if _, e := fmt.Sscanf(err.Error(), "%d response returned", &n); e == nil {
		return n
	}
	return 0
}

// Every REST function of newrelic-client-go, driven unchanged against the gateway:
// each works, or answers its designed 410/501 with a title naming its source (New
// Relic's retirement or the NerdGraph capability that is missing).
func TestEveryRESTCall(t *testing.T) {
	calls := everyRESTCall(t)
	works, refused := 0, 0
	for _, c := range calls {
		err := c.call()
		switch {
		case c.want == 0 && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == 0:
			works++
		case err == nil || statusOf(err) != c.want:
			t.Errorf("%s: %v, want %d", c.name, err, c.want)
		case !strings.Contains(err.Error(), c.source):
			t.Errorf("%s: %v does not name its source %q", c.name, err, c.source)
		default:
			refused++
		}
	}
	t.Logf("%d calls: %d work, %d answer 410/501 by design", len(calls), works, refused)
}
