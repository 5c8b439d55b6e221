package sim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Data is the simulator's world: accounts with their entities, and the users whose API
// keys reach them. It is plain data (the YAML layout of configs/demo-data.yaml, field
// names as in NerdGraph); ParseData decodes and validates it, New indexes it. New copies
// what it needs, so a Data may be reused or changed afterwards.
type Data struct {
	// Accounts are the New Relic accounts that exist.
	Accounts []Account `yaml:"accounts"`
	// Users are the key owners; each user key reaches a set of accounts.
	Users []User `yaml:"users"`
}

// User owns one user API key (the `API-Key` header of NerdGraph).
type User struct {
	// ID is the user id (actor.user.id); optional.
	ID int `yaml:"id"`
	// Name and Email are shown by actor.user; optional.
	Name  string `yaml:"name"`
	Email string `yaml:"email"`
	// Key is the user API key, e.g. NRAK-DEMO-ACCOUNT-1. Required, unique.
	Key string `yaml:"key"`
	// Accounts lists the ids of the accounts the key reaches. Required.
	Accounts []int `yaml:"accounts"`
	// Account is the account the key was created in (ApiAccessUserKey.accountId), one
	// of Accounts; optional, the first of Accounts when unset.
	Account int `yaml:"account"`
}

// Account is one New Relic account and the entities that live in it. Entity kinds are
// one list each, and so are alert policies and conditions.
type Account struct {
	// ID is the account id. Required, unique, positive.
	ID int `yaml:"id"`
	// Name is the account name. Required.
	Name string `yaml:"name"`
	// BrowserLicenseKey is the browser license key written into the loader script of the
	// account's browser applications. Required when the account has any.
	BrowserLicenseKey string `yaml:"browserLicenseKey"`
	// APMApplications are the APM applications (entities APM|APPLICATION).
	APMApplications []APMApplication `yaml:"apmApplications"`
	// BrowserApplications are standalone browser applications (not injected by an APM
	// agent), such as those created with agentApplicationCreateBrowser.
	BrowserApplications []BrowserApplication `yaml:"browserApplications"`
	// MobileApplications are the account's mobile applications (MOBILE|APPLICATION).
	MobileApplications []MobileApplication `yaml:"mobileApplications"`
	// AlertPolicies are the account's alert policies.
	AlertPolicies []AlertPolicy `yaml:"alertPolicies"`
	// KeyTransactions are the account's key transactions (EXT|KEY_TRANSACTION).
	KeyTransactions []KeyTransaction `yaml:"keyTransactions"`
	// NrqlConditions are the NRQL alert conditions of the account's policies
	// (alerts.nrqlConditionsSearch; conditions.go).
	NrqlConditions []NrqlCondition `yaml:"nrqlConditions"`
	// LegacyConditions are conditions of other products (APM, browser, mobile, servers,
	// infrastructure, synthetics) that alerts.asNrqlConditionsSearch shows converted to
	// NRQL form.
	LegacyConditions []LegacyCondition `yaml:"legacyConditions"`
}

// NrqlCondition is an NRQL alert condition of a policy. Fields follow NerdGraph's
// AlertsNrqlStaticCondition and AlertsNrqlBaselineCondition; durations are seconds.
// Unset optional fields take NerdGraph's defaults when read.
type NrqlCondition struct {
	// ID is the condition id, unique among the conditions (NRQL and legacy) of all
	// accounts. Required, positive.
	ID int `yaml:"id"`
	// PolicyID is the id of one of the account's alertPolicies. Required.
	PolicyID int `yaml:"policyId"`
	// Name is the condition name. Required; any characters.
	Name string `yaml:"name"`
	// Type is STATIC or BASELINE.
	Type string `yaml:"type"`
	// Enabled tells whether the condition is evaluated.
	Enabled bool `yaml:"enabled"`
	// Description, RunbookURL, TitleTemplate and TargetEntity (a guid) are optional.
	Description   string `yaml:"description"`
	RunbookURL    string `yaml:"runbookUrl"`
	TitleTemplate string `yaml:"titleTemplate"`
	TargetEntity  string `yaml:"targetEntity"`
	// Nrql is the evaluated query. Required.
	Nrql NrqlQuery `yaml:"nrql"`
	// Terms are the thresholds: at least one, at most one CRITICAL and one WARNING.
	Terms []NrqlTerm `yaml:"terms"`
	// ValueFunction is SINGLE_VALUE (the default) or SUM; static conditions only. It is
	// a deprecated input of the real API and NerdGraph never returns it.
	ValueFunction string `yaml:"valueFunction"`
	// BaselineDirection is UPPER_ONLY, LOWER_ONLY or UPPER_AND_LOWER; required for
	// baseline conditions, absent on static ones.
	BaselineDirection string `yaml:"baselineDirection"`
	// SignalSeasonality is the seasonality of a baseline condition (optional).
	SignalSeasonality string `yaml:"signalSeasonality"`
	// ViolationTimeLimitSeconds closes open incidents after this long: 300 to 2592000;
	// 0 means NerdGraph's default, 259200 (3 days).
	ViolationTimeLimitSeconds float64 `yaml:"violationTimeLimitSeconds"`
	// Signal is how the signal is aggregated (defaults: a 60 s EVENT_FLOW window with a
	// 120 s delay, no gap filling).
	Signal NrqlSignal `yaml:"signal"`
	// Expiration is what happens when the signal stops (default: nothing).
	Expiration NrqlExpiration `yaml:"expiration"`
	// CreatedAt and UpdatedAt are optional (null when zero).
	CreatedAt time.Time `yaml:"createdAt"`
	UpdatedAt time.Time `yaml:"updatedAt"`
}

// NrqlQuery is the query of an NRQL condition.
type NrqlQuery struct {
	// Query is the NRQL text. Required.
	Query string `yaml:"query"`
	// DataAccountID is the account the query runs in, when not the condition's own;
	// 0 when unset.
	DataAccountID int `yaml:"dataAccountId"`
	// EvaluationOffset (minutes) is a deprecated input that NerdGraph never returns.
	EvaluationOffset int `yaml:"evaluationOffset"`
}

// NrqlTerm is one threshold of an NRQL condition.
type NrqlTerm struct {
	// Priority is CRITICAL or WARNING.
	Priority string `yaml:"priority"`
	// Operator is ABOVE, ABOVE_OR_EQUALS, BELOW, BELOW_OR_EQUALS, EQUALS or NOT_EQUALS
	// (baseline conditions: ABOVE only, the threshold counting standard deviations).
	Operator string `yaml:"operator"`
	// Threshold is the value compared with the signal.
	Threshold float64 `yaml:"threshold"`
	// ThresholdDuration (seconds) is how long the threshold must be breached: a multiple
	// of the aggregation window, 60 (static; 120 with valueFunction SUM, and baseline) to
	// 86400.
	ThresholdDuration float64 `yaml:"thresholdDuration"`
	// ThresholdOccurrences is ALL or AT_LEAST_ONCE.
	ThresholdOccurrences string `yaml:"thresholdOccurrences"`
	// DisableHealthStatusReporting defaults to false.
	DisableHealthStatusReporting bool `yaml:"disableHealthStatusReporting"`
	// Prediction makes a static term predict breaches (optional).
	Prediction *NrqlPrediction `yaml:"prediction"`
}

// NrqlPrediction is the prediction setting of a static term.
type NrqlPrediction struct {
	// PredictBy (seconds) defaults to 3600.
	PredictBy                 float64 `yaml:"predictBy"`
	PreferPredictionViolation bool    `yaml:"preferPredictionViolation"`
}

// NrqlSignal is how an NRQL condition aggregates its signal; nil and empty fields take
// NerdGraph's defaults when read.
type NrqlSignal struct {
	// AggregationWindow (seconds) is 30 to 21600; default 60.
	AggregationWindow *float64 `yaml:"aggregationWindow"`
	// AggregationMethod is EVENT_FLOW (the default), EVENT_TIMER or CADENCE.
	AggregationMethod string `yaml:"aggregationMethod"`
	// AggregationDelay (seconds; EVENT_FLOW and CADENCE only) defaults to 120.
	AggregationDelay *float64 `yaml:"aggregationDelay"`
	// AggregationTimer (seconds, 5 to 1200; EVENT_TIMER only) defaults to 60.
	AggregationTimer *float64 `yaml:"aggregationTimer"`
	// EvaluationDelay, PollingFrequency and SlideBy (seconds) are optional.
	EvaluationDelay  *float64 `yaml:"evaluationDelay"`
	PollingFrequency *float64 `yaml:"pollingFrequency"`
	SlideBy          *float64 `yaml:"slideBy"`
	// FillOption is NONE (the default), LAST_VALUE or STATIC; STATIC needs FillValue.
	FillOption string   `yaml:"fillOption"`
	FillValue  *float64 `yaml:"fillValue"`
}

// NrqlExpiration is what an NRQL condition does when its signal stops.
type NrqlExpiration struct {
	// ExpirationDuration (seconds, 30 to 172800) is unset by default.
	ExpirationDuration          *float64 `yaml:"expirationDuration"`
	OpenViolationOnExpiration   bool     `yaml:"openViolationOnExpiration"`
	CloseViolationsOnExpiration bool     `yaml:"closeViolationsOnExpiration"`
	IgnoreOnExpectedTermination bool     `yaml:"ignoreOnExpectedTermination"`
}

// LegacyCondition is a condition of another product (an APM metric condition, say) as
// alerts.asNrqlConditionsSearch shows it: converted to an NRQL condition. It has the
// fields of an NrqlCondition (Type STATIC or BASELINE) and its source product.
type LegacyCondition struct {
	// SourceProduct is APM, BROWSER, INFRASTRUCTURE, MOBILE, SERVERS or SYNTHETICS.
	SourceProduct string `yaml:"sourceProduct"`
	NrqlCondition `yaml:",inline"`
}

// KeyTransaction is a key transaction of an APM application.
type KeyTransaction struct {
	// ID is the key transaction id (the entity's domainId).
	ID int `yaml:"id"`
	// Name is the key transaction name.
	Name string `yaml:"name"`
	// AppID is the APM application the transaction belongs to.
	AppID int `yaml:"appId"`
	// MetricName is the transaction's timeslice metric (WebTransaction/...).
	MetricName string `yaml:"metricName"`
	// ApdexTarget and BrowserApdexTarget are in seconds.
	ApdexTarget        float64 `yaml:"apdexTarget"`
	BrowserApdexTarget float64 `yaml:"browserApdexTarget"`
}

// AlertPolicy is an alert policy.
type AlertPolicy struct {
	// ID is the policy id, unique in the account.
	ID int `yaml:"id"`
	// Name is the policy name.
	Name string `yaml:"name"`
	// IncidentPreference is PER_POLICY, PER_CONDITION, PER_CONDITION_AND_TARGET or CUSTOM.
	IncidentPreference string `yaml:"incidentPreference"`
}

// MobileApplication is an application monitored by a mobile agent.
type MobileApplication struct {
	// ID is the mobile application id, unique among all application ids.
	ID int `yaml:"id"`
	// Name is the application name.
	Name string `yaml:"name"`
	// Reporting tells whether agents currently report.
	Reporting bool `yaml:"reporting"`
	// AlertSeverity defaults to NOT_CONFIGURED.
	AlertSeverity string `yaml:"alertSeverity"`
	// ApplicationToken is the agent's token (mobileProperties.applicationToken).
	ApplicationToken string `yaml:"applicationToken"`
	// Summary holds the recent figures (mobileSummary); reporting applications only.
	Summary *MobileSummary `yaml:"summary"`
}

// MobileSummary is a mobile application's recent figures (mobileSummary).
type MobileSummary struct {
	AppLaunchCount          int     `yaml:"appLaunchCount"`
	CrashCount              int     `yaml:"crashCount"`
	CrashRate               float64 `yaml:"crashRate"`
	HTTPErrorRate           float64 `yaml:"httpErrorRate"`
	HTTPRequestCount        int     `yaml:"httpRequestCount"`
	HTTPRequestRate         float64 `yaml:"httpRequestRate"`
	HTTPResponseTimeAverage float64 `yaml:"httpResponseTimeAverage"`
	MobileSessionCount      int     `yaml:"mobileSessionCount"`
	NetworkFailureRate      float64 `yaml:"networkFailureRate"`
	UsersAffectedCount      int     `yaml:"usersAffectedCount"`
}

// APMApplication is an application monitored by an APM language agent.
type APMApplication struct {
	// ID is the legacy numeric application id: the entity's domainId and the REST v2 id.
	// Required, positive, at most 2^31-1, unique among all application ids.
	ID int `yaml:"id"`
	// Name is the application name. Required; any characters.
	Name string `yaml:"name"`
	// Language is the agent language: c, dotnet, go, java, nodejs, php, python or ruby.
	Language string `yaml:"language"`
	// Reporting tells whether agents currently report.
	Reporting bool `yaml:"reporting"`
	// AlertSeverity is CRITICAL, WARNING, NOT_ALERTING or NOT_CONFIGURED.
	AlertSeverity string `yaml:"alertSeverity"`
	// LastReportingChangeAt is when reporting last changed; optional.
	LastReportingChangeAt time.Time `yaml:"lastReportingChangeAt"`
	// AgentVersion is the running agent version (runningAgentVersions min and max);
	// optional.
	AgentVersion string `yaml:"agentVersion"`
	// ApdexTarget is the Apdex T in seconds. Required, positive.
	ApdexTarget float64 `yaml:"apdexTarget"`
	// ServerSideConfig tells whether server-side agent configuration is on.
	ServerSideConfig bool `yaml:"serverSideConfig"`
	// Tags are extra entity tags. The tags account, accountId and language are added by
	// the simulator and may not be given here.
	Tags map[string][]string `yaml:"tags"`
	// Summary holds the recent performance figures; only for reporting applications
	// (apmSummary is null for the others).
	Summary *APMSummary `yaml:"summary"`
	// Instances are the running agent instances; only for reporting applications.
	// hostCount and instanceCount of the summary are derived from them.
	Instances []Instance `yaml:"instances"`
	// Browser is the browser application injected by the agent, if any.
	Browser *BrowserApplication `yaml:"browser"`
	// StoppedAgo is, for a non-reporting application, how long before the simulator
	// started its agents last reported: its metric rows (of one agent instance, id the
	// application's) run until then, so its names and older data stay queryable. Zero:
	// it has no metric data.
	StoppedAgo time.Duration `yaml:"stoppedAgo"`
	// StoppedMetrics are metric names that stopped while the application reports on,
	// each with how long before the simulator started it sent its last row.
	StoppedMetrics map[string]time.Duration `yaml:"stoppedMetrics"`
	// Gaps are spans in which none of the application's agents reported.
	Gaps []Gap `yaml:"gaps"`
	// MetricNames replaces the generator's default metric names (set by
	// WithLargeAccount for its application with many names; not read from YAML).
	MetricNames []string `yaml:"-"`
}

// APMSummary is an APM application's recent performance (apmSummary). Response and
// throughput totals are derived: throughput = web + non-web, responseTimeAverage the
// throughput-weighted average.
type APMSummary struct {
	// ApdexScore is between 0 and 1.
	ApdexScore float64 `yaml:"apdexScore"`
	// ErrorRate is a percentage.
	ErrorRate float64 `yaml:"errorRate"`
	// WebResponseTimeAverage and NonWebResponseTimeAverage are in seconds.
	WebResponseTimeAverage    float64 `yaml:"webResponseTimeAverage"`
	NonWebResponseTimeAverage float64 `yaml:"nonWebResponseTimeAverage"`
	// WebThroughput and NonWebThroughput are in requests per minute.
	WebThroughput    float64 `yaml:"webThroughput"`
	NonWebThroughput float64 `yaml:"nonWebThroughput"`
}

// Instance is one running agent instance of an APM application.
type Instance struct {
	// ID is the numeric instance id. Required, positive, unique among all instances.
	ID int64 `yaml:"id"`
	// Host is the host name the instance runs on. Required.
	Host string `yaml:"host"`
	// HostDisplayName defaults to Host.
	HostDisplayName string `yaml:"hostDisplayName"`
	// InstanceName defaults to Host.
	InstanceName string `yaml:"instanceName"`
	// Environment are the agent's environment attributes (environmentAttributes).
	Environment map[string]string `yaml:"environment"`
	// ReportingSince is when the instance started reporting (zero: always; generated
	// accounts only).
	ReportingSince time.Time `yaml:"-"`
}

// Gap is a span without metric data: it starts Ago before the simulator started and
// lasts Length (whole minutes).
type Gap struct {
	Ago    time.Duration `yaml:"ago"`
	Length time.Duration `yaml:"length"`
}

// BrowserApplication is a browser application injected by an APM agent (entity
// BROWSER|APPLICATION whose servingApmApplicationId is the APM application's id). Its
// reporting state is the APM application's.
type BrowserApplication struct {
	// ID is the browser application id. Required, unique among all application ids.
	ID int `yaml:"id"`
	// Name defaults to the APM application's name.
	Name string `yaml:"name"`
	// ApdexTarget is the end-user Apdex T in seconds. Required, positive.
	ApdexTarget float64 `yaml:"apdexTarget"`
	// Loader is the browser agent loader: LITE, SPA or PRO.
	Loader string `yaml:"loader"`
	// AlertSeverity defaults to NOT_CONFIGURED.
	AlertSeverity string `yaml:"alertSeverity"`
	// Summary holds the recent browser figures (browserSummary, and apmBrowserSummary on
	// the APM application); only when the APM application reports.
	Summary *BrowserSummary `yaml:"summary"`
}

// BrowserSummary is a browser application's recent figures.
type BrowserSummary struct {
	// PageLoadTimeAverage is in seconds, PageLoadThroughput in page views per minute.
	PageLoadTimeAverage float64 `yaml:"pageLoadTimeAverage"`
	PageLoadThroughput  float64 `yaml:"pageLoadThroughput"`
	// AjaxResponseTimeAverage is in seconds, AjaxRequestThroughput in requests per minute.
	AjaxResponseTimeAverage float64 `yaml:"ajaxResponseTimeAverage"`
	AjaxRequestThroughput   float64 `yaml:"ajaxRequestThroughput"`
	// JSErrorRate is a percentage.
	JSErrorRate float64 `yaml:"jsErrorRate"`
}

// ParseData decodes a YAML data set strictly (unknown keys, duplicate keys and trailing
// documents are errors) and validates it. The error names the offending path, e.g.
// `accounts[0].apmApplications[3].alertSeverity`, and lists every problem found.
func ParseData(b []byte) (*Data, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var d Data
	if err := dec.Decode(&d); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("sim data: empty document")
		}
		return nil, fmt.Errorf("sim data: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("sim data: more than one YAML document")
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Validate checks the data set and returns every problem at once, each naming its path.
func (d *Data) Validate() error {
	v := &validator{}
	accounts := map[int]string{}
	appIDs := map[int]string{}
	instanceIDs := map[int64]string{}
	for i, a := range d.Accounts {
		p := fmt.Sprintf("accounts[%d]", i)
		if a.ID <= 0 || a.ID > math.MaxInt32 {
			v.addf("%s.id: %d is not a positive 32-bit account id", p, a.ID)
		} else if prev, ok := accounts[a.ID]; ok {
			v.addf("%s.id: %d already used by %s", p, a.ID, prev)
		} else {
			accounts[a.ID] = p
		}
		if strings.TrimSpace(a.Name) == "" {
			v.addf("%s.name: required", p)
		}
		hasBrowser := false
		for j, app := range a.APMApplications {
			ap := fmt.Sprintf("%s.apmApplications[%d]", p, j)
			v.apm(ap, app, appIDs, instanceIDs)
			hasBrowser = hasBrowser || app.Browser != nil
		}
		if hasBrowser && a.BrowserLicenseKey == "" {
			v.addf("%s.browserLicenseKey: required when the account has browser applications", p)
		}
	}
	v.alertConditions(d)
	keys := map[string]string{}
	for i, u := range d.Users {
		p := fmt.Sprintf("users[%d]", i)
		switch prev, dup := keys[u.Key]; {
		case u.Key == "":
			v.addf("%s.key: required", p)
		case dup:
			v.addf("%s.key: already used by %s", p, prev)
		default:
			keys[u.Key] = p
		}
		if len(u.Accounts) == 0 {
			v.addf("%s.accounts: at least one account required", p)
		}
		for k, id := range u.Accounts {
			if _, ok := accounts[id]; !ok {
				v.addf("%s.accounts[%d]: no account %d", p, k, id)
			}
		}
		if u.Account != 0 && !slices.Contains(u.Accounts, u.Account) {
			v.addf("%s.account: %d is not one of its accounts", p, u.Account)
		}
	}
	return v.err()
}

// Allowed values (functions, so that no package-level state is mutable).
func languages() []string {
	return []string{"c", "dotnet", "go", "java", "nodejs", "php", "python", "ruby"}
}
func severities() []string     { return []string{"CRITICAL", "NOT_ALERTING", "NOT_CONFIGURED", "WARNING"} }
func browserLoaders() []string { return []string{"LITE", "NONE", "PRO", "SPA"} }

// reservedTagKeys are the tags the simulator derives itself.
func reservedTagKeys() []string { return []string{"account", "accountId", "language"} }

func (v *validator) apm(p string, app APMApplication, appIDs map[int]string, instanceIDs map[int64]string) {
	v.appID(p+".id", app.ID, appIDs)
	if strings.TrimSpace(app.Name) == "" {
		v.addf("%s.name: required", p)
	}
	v.oneOf(p+".language", app.Language, languages())
	v.oneOf(p+".alertSeverity", app.AlertSeverity, severities())
	if !(app.ApdexTarget > 0) {
		v.addf("%s.apdexTarget: must be positive", p)
	}
	keys := make([]string, 0, len(app.Tags))
	for k := range app.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch {
		case strings.TrimSpace(k) == "":
			v.addf("%s.tags: empty tag key", p)
		case slices.Contains(reservedTagKeys(), k):
			v.addf("%s.tags.%s: reserved, the simulator sets it", p, k)
		case len(app.Tags[k]) == 0:
			v.addf("%s.tags.%s: at least one value required", p, k)
		}
	}
	if !app.Reporting && app.Summary != nil {
		v.addf("%s.summary: must be absent when reporting is false", p)
	}
	if !app.Reporting && len(app.Instances) > 0 {
		v.addf("%s.instances: must be empty when reporting is false", p)
	}
	if app.StoppedAgo < 0 || app.StoppedAgo > 0 && app.Reporting {
		v.addf("%s.stoppedAgo: must be positive, and only when reporting is false", p)
	}
	for name, ago := range app.StoppedMetrics {
		if ago <= 0 || !app.Reporting {
			v.addf("%s.stoppedMetrics.%s: must be positive, and only when reporting is true", p, name)
		}
	}
	for k, g := range app.Gaps {
		if g.Ago <= 0 || g.Length <= 0 || g.Length > g.Ago || !app.Reporting {
			v.addf("%s.gaps[%d]: ago and length must be positive, length at most ago, and only when reporting is true", p, k)
		}
	}
	if s := app.Summary; s != nil {
		sp := p + ".summary"
		if s.ApdexScore < 0 || s.ApdexScore > 1 {
			v.addf("%s.apdexScore: %g is not between 0 and 1", sp, s.ApdexScore)
		}
		for _, f := range []struct {
			name string
			val  float64
		}{
			{"errorRate", s.ErrorRate},
			{"webResponseTimeAverage", s.WebResponseTimeAverage},
			{"nonWebResponseTimeAverage", s.NonWebResponseTimeAverage},
			{"webThroughput", s.WebThroughput},
			{"nonWebThroughput", s.NonWebThroughput},
		} {
			if f.val < 0 || math.IsNaN(f.val) || math.IsInf(f.val, 0) {
				v.addf("%s.%s: must be a non-negative number", sp, f.name)
			}
		}
	}
	for k, in := range app.Instances {
		ip := fmt.Sprintf("%s.instances[%d]", p, k)
		if in.ID <= 0 {
			v.addf("%s.id: must be positive", ip)
		} else if prev, ok := instanceIDs[in.ID]; ok {
			v.addf("%s.id: %d already used by %s", ip, in.ID, prev)
		} else {
			instanceIDs[in.ID] = ip
		}
		if strings.TrimSpace(in.Host) == "" {
			v.addf("%s.host: required", ip)
		}
	}
	if b := app.Browser; b != nil {
		bp := p + ".browser"
		v.appID(bp+".id", b.ID, appIDs)
		if !(b.ApdexTarget > 0) {
			v.addf("%s.apdexTarget: must be positive", bp)
		}
		v.oneOf(bp+".loader", b.Loader, browserLoaders())
		if b.AlertSeverity != "" {
			v.oneOf(bp+".alertSeverity", b.AlertSeverity, severities())
		}
		if !app.Reporting && b.Summary != nil {
			v.addf("%s.summary: must be absent when the APM application does not report", bp)
		}
	}
}

func (v *validator) appID(p string, id int, seen map[int]string) {
	switch prev, dup := seen[id]; {
	case id <= 0 || id > math.MaxInt32:
		v.addf("%s: %d is not a positive 32-bit application id", p, id)
	case dup:
		v.addf("%s: %d already used by %s", p, id, prev)
	default:
		seen[id] = p
	}
}

func (v *validator) oneOf(p, got string, allowed []string) {
	if !slices.Contains(allowed, got) {
		v.addf("%s: %q is not one of %s", p, got, strings.Join(allowed, ", "))
	}
}

// validator collects problems; the first maxProblems are reported.
type validator struct {
	problems []string
	dropped  int
}

const maxProblems = 50

func (v *validator) addf(format string, args ...any) {
	if len(v.problems) == maxProblems {
		v.dropped++
		return
	}
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

func (v *validator) err() error {
	if len(v.problems) == 0 {
		return nil
	}
	msg := "sim data: " + strings.Join(v.problems, "; ")
	if v.dropped > 0 {
		msg += fmt.Sprintf("; and %d more", v.dropped)
	}
	return errors.New(msg)
}
