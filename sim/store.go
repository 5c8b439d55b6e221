package sim

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/sim/model"
)

// world is the indexed, read-only form of Data that resolvers answer from. Every
// GraphQL object an entity is served as (full entity, outline, instances, edges) is
// built once here and shared by all requests; the executor only reads them.
type world struct {
	accounts map[int]*simAccount
	byGUID   map[string]*entity
	callers  map[string]*caller
	// instanceEnv holds the environment attributes of each application instance, by
	// instance id.
	instanceEnv map[string][]*model.AgentEnvironmentAttribute
}

type simAccount struct {
	id      int
	name    string
	outline *model.AccountOutline
	// entities are the account's entities in search order (byName).
	entities []*entity
}

// caller is what an API key reaches.
type caller struct {
	user *model.User
	// key is the caller's user key as ApiAccessUserKey shows it to its owner.
	key      *model.APIAccessUserKey
	accounts []*simAccount // by id
	reach    map[int]bool
	// entities are all reachable entities in search order (byName).
	entities []*entity
	// scope identifies the reachable accounts in cursors.
	scope string
}

// entity is one entity of any kind. Kind-specific data sits in the GraphQL objects
// (full, outline) and in the optional fields below.
type entity struct {
	guid          string
	accountID     int
	domain        string
	typ           string
	domainID      string
	name          string
	nameLower     string
	reporting     bool
	alertSeverity model.EntityAlertSeverity
	entityType    model.EntityType
	tags          []tag // by key
	full          model.Entity
	outline       model.EntityOutline
	edges         []*edge
	// instances are the running instances of an APM application.
	instances []*model.AgentEnvironmentApplicationInstance
}

type tag struct {
	key    string
	values []string
	lower  []string
}

// edge is a relationship between two entities, shared by both ends.
type edge struct {
	typ    model.EntityRelationshipEdgeType
	source *entity
	target *entity
	gql    *model.EntityRelationshipDetectedEdge
}

// byName is the search order: name without case, then name, then guid.
func byName(a, b *entity) int {
	if c := strings.Compare(a.nameLower, b.nameLower); c != 0 {
		return c
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	return strings.Compare(a.guid, b.guid)
}

// buildWorld indexes d, which must be valid.
func buildWorld(d *Data) (*world, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	w := &world{
		accounts:    map[int]*simAccount{},
		byGUID:      map[string]*entity{},
		callers:     map[string]*caller{},
		instanceEnv: map[string][]*model.AgentEnvironmentAttribute{},
	}
	shared := newBrowserDefaults()
	for i := range d.Accounts {
		a := &d.Accounts[i]
		acct := &simAccount{id: a.ID, name: a.Name, outline: &model.AccountOutline{ID: ptr(a.ID), Name: ptr(a.Name)}}
		w.accounts[a.ID] = acct
		for j := range a.APMApplications {
			app := &a.APMApplications[j]
			e := w.addAPM(acct, app)
			if app.Browser != nil {
				b := w.addBrowser(acct, a.BrowserLicenseKey, app, e, shared)
				ed := newEdge(model.EntityRelationshipEdgeTypeServes, e, b, app.LastReportingChangeAt)
				e.edges = append(e.edges, ed)
				b.edges = append(b.edges, ed)
			}
		}
		for j := range a.KeyTransactions {
			w.addKeyTransaction(acct, &a.KeyTransactions[j])
		}
		for j := range a.MobileApplications {
			w.addMobile(acct, &a.MobileApplications[j])
		}
		for j := range a.BrowserApplications {
			b := &a.BrowserApplications[j]
			w.addBrowser(acct, a.BrowserLicenseKey, &APMApplication{Name: b.Name, Browser: b}, nil, shared)
		}
		slices.SortFunc(acct.entities, byName)
	}
	for i := range d.Users {
		u := &d.Users[i]
		c := &caller{
			user:  &model.User{ID: nonZero(u.ID), Name: nonEmpty(u.Name), Email: nonEmpty(u.Email)},
			reach: map[int]bool{},
		}
		ids := slices.Clone(u.Accounts)
		slices.Sort(ids)
		ids = slices.Compact(ids)
		scope := make([]string, len(ids))
		for k, id := range ids {
			acct := w.accounts[id]
			c.accounts = append(c.accounts, acct)
			c.reach[id] = true
			c.entities = append(c.entities, acct.entities...)
			scope[k] = strconv.Itoa(id)
		}
		slices.SortFunc(c.entities, byName)
		c.scope = strings.Join(scope, ",")
		own := u.Account
		if own == 0 && len(u.Accounts) > 0 {
			own = u.Accounts[0]
		}
		c.key = &model.APIAccessUserKey{Key: ptr(u.Key), AccountID: ptr(own), UserID: nonZero(u.ID),
			Type: ptr(model.APIAccessKeyTypeUser)}
		w.callers[u.Key] = c
	}
	return w, nil
}

func (w *world) add(acct *simAccount, e *entity) {
	if _, dup := w.byGUID[e.guid]; dup {
		// Validate rules out duplicate ids; a duplicate guid is a bug here.
		panic(fmt.Sprintf("sim: duplicate entity guid %s", e.guid))
	}
	w.byGUID[e.guid] = e
	acct.entities = append(acct.entities, e)
}

func newEntity(acct *simAccount, domain, typ string, id int, name string, reporting bool, sev string, et model.EntityType) *entity {
	domainID := strconv.Itoa(id)
	return &entity{
		guid:          entityGUID(acct.id, domain, typ, domainID),
		accountID:     acct.id,
		domain:        domain,
		typ:           typ,
		domainID:      domainID,
		name:          name,
		nameLower:     strings.ToLower(name),
		reporting:     reporting,
		alertSeverity: model.EntityAlertSeverity(sev),
		entityType:    et,
	}
}

func (w *world) addAPM(acct *simAccount, app *APMApplication) *entity {
	e := newEntity(acct, "APM", "APPLICATION", app.ID, app.Name, app.Reporting, app.AlertSeverity, model.EntityTypeApmApplicationEntity)
	extra := map[string][]string{
		"account":   {acct.name},
		"accountId": {strconv.Itoa(acct.id)},
		"language":  {app.Language},
	}
	for k, v := range app.Tags {
		extra[k] = v
	}
	e.tags = makeTags(extra)
	gqlTags := gqlTags(e.tags)

	hosts := map[string]bool{}
	for _, in := range app.Instances {
		id := strconv.FormatInt(in.ID, 10)
		e.instances = append(e.instances, &model.AgentEnvironmentApplicationInstance{
			Details: &model.AgentEnvironmentApplicationInstanceDetails{
				Host:            in.Host,
				HostDisplayName: cmp.Or(in.HostDisplayName, in.Host),
				ID:              id,
				InstanceName:    cmp.Or(in.InstanceName, in.Host),
				Language:        app.Language,
				Name:            app.Name,
			},
		})
		w.instanceEnv[id] = envAttributes(in.Environment)
		hosts[in.Host] = true
	}

	var summary *model.ApmApplicationSummaryData
	if s := app.Summary; s != nil && app.Reporting {
		total := s.WebThroughput + s.NonWebThroughput
		rt := 0.0
		if total > 0 {
			rt = (s.WebResponseTimeAverage*s.WebThroughput + s.NonWebResponseTimeAverage*s.NonWebThroughput) / total
		}
		summary = &model.ApmApplicationSummaryData{
			ApdexScore:                ptr(s.ApdexScore),
			ErrorRate:                 ptr(s.ErrorRate),
			HostCount:                 ptr(len(hosts)),
			InstanceCount:             ptr(len(app.Instances)),
			NonWebResponseTimeAverage: ptr(s.NonWebResponseTimeAverage),
			NonWebThroughput:          ptr(s.NonWebThroughput),
			ResponseTimeAverage:       ptr(rt),
			Throughput:                ptr(total),
			WebResponseTimeAverage:    ptr(s.WebResponseTimeAverage),
			WebThroughput:             ptr(s.WebThroughput),
		}
	}
	var browserSummary *model.ApmBrowserApplicationSummaryData
	if b := app.Browser; b != nil && b.Summary != nil && app.Reporting {
		browserSummary = &model.ApmBrowserApplicationSummaryData{
			AjaxRequestThroughput:   ptr(b.Summary.AjaxRequestThroughput),
			AjaxResponseTimeAverage: ptr(b.Summary.AjaxResponseTimeAverage),
			JsErrorRate:             ptr(b.Summary.JSErrorRate),
			PageLoadThroughput:      ptr(b.Summary.PageLoadThroughput),
			PageLoadTimeAverage:     ptr(b.Summary.PageLoadTimeAverage),
		}
	}
	var versions *model.ApmApplicationRunningAgentVersions
	if app.AgentVersion != "" {
		versions = &model.ApmApplicationRunningAgentVersions{MaxVersion: ptr(app.AgentVersion), MinVersion: ptr(app.AgentVersion)}
	}
	settings := &model.ApmApplicationSettings{ApdexTarget: ptr(app.ApdexTarget), ServerSideConfig: ptr(app.ServerSideConfig)}
	apmSettings := &model.AgentApplicationSettingsApmBase{
		ApmConfig:    &model.AgentApplicationSettingsApmConfig{ApdexTarget: ptr(app.ApdexTarget), UseServerSideConfig: ptr(app.ServerSideConfig)},
		OriginalName: ptr(app.Name),
	}
	c := e.common(acct, app.LastReportingChangeAt)
	e.full = &model.ApmApplicationEntity{
		Account: acct.outline, AccountID: c.accountID, AlertSeverity: c.severity,
		ApmBrowserSummary: browserSummary, ApmSettings: apmSettings, ApmSummary: summary,
		ApplicationID: ptr(app.ID), Domain: c.domain, EntityType: c.entityType, GUID: c.guid,
		Language: ptr(app.Language), LastReportingChangeAt: c.lastChange, Name: c.name,
		Permalink: c.permalink, Reporting: c.reporting, RunningAgentVersions: versions,
		Settings: settings, Tags: gqlTags, Type: c.typ,
	}
	e.outline = &model.ApmApplicationEntityOutline{
		Account: acct.outline, AccountID: c.accountID, AlertSeverity: c.severity,
		ApmBrowserSummary: browserSummary, ApmSummary: summary,
		ApplicationID: ptr(app.ID), Domain: c.domain, EntityType: c.entityType, GUID: c.guid,
		Language: ptr(app.Language), LastReportingChangeAt: c.lastChange, Name: c.name,
		Permalink: c.permalink, Reporting: c.reporting, RunningAgentVersions: versions,
		Settings: settings, Tags: gqlTags, Type: c.typ,
	}
	w.add(acct, e)
	return e
}

func (w *world) addBrowser(acct *simAccount, licenseKey string, app *APMApplication, apm *entity, shared *browserDefaults) *entity {
	b := app.Browser
	name := cmp.Or(b.Name, app.Name)
	e := newEntity(acct, "BROWSER", "APPLICATION", b.ID, name, app.Reporting, cmp.Or(b.AlertSeverity, "NOT_CONFIGURED"), model.EntityTypeBrowserApplicationEntity)
	e.tags = makeTags(map[string][]string{"account": {acct.name}, "accountId": {strconv.Itoa(acct.id)}})
	gqlTags := gqlTags(e.tags)

	var summary *model.BrowserApplicationSummaryData
	if s := b.Summary; s != nil && app.Reporting {
		summary = &model.BrowserApplicationSummaryData{
			AjaxRequestThroughput:   ptr(s.AjaxRequestThroughput),
			AjaxResponseTimeAverage: ptr(s.AjaxResponseTimeAverage),
			JsErrorRate:             ptr(s.JSErrorRate),
			PageLoadThroughput:      ptr(s.PageLoadThroughput),
			PageLoadTimeAverage:     ptr(s.PageLoadTimeAverage),
		}
	}
	installType := model.BrowserAgentInstallTypeLite
	switch b.Loader {
	case "PRO":
		installType = model.BrowserAgentInstallTypePro
	case "SPA":
		installType = model.BrowserAgentInstallTypeProSpa
	}
	loader := model.AgentApplicationSettingsBrowserLoader(b.Loader)
	cfg := jsConfig(acct.id, b.ID, licenseKey)
	c := e.common(acct, app.LastReportingChangeAt)
	settings := &model.BrowserApplicationSettings{ApdexTarget: ptr(b.ApdexTarget)}
	var serving *int // standalone browser applications have no serving APM application
	if apm != nil {
		serving = ptr(app.ID)
	}
	e.full = &model.BrowserApplicationEntity{
		Account: acct.outline, AccountID: c.accountID, AgentInstallType: &installType,
		AlertSeverity: c.severity, ApplicationID: ptr(b.ID),
		BrowserProperties: &model.AgentApplicationSettingsBrowserProperties{
			JsConfig:       cfg,
			JsConfigScript: ptr(jsConfigScript(acct.id, b.ID, licenseKey)),
			JsLoaderScript: ptr(jsLoaderScript(acct.id, b.ID, licenseKey, b.Loader)),
		},
		BrowserSettings: &model.AgentApplicationSettingsBrowserBase{
			BrowserConfig:      &model.AgentApplicationSettingsBrowserConfig{ApdexTarget: ptr(b.ApdexTarget)},
			BrowserConsentMode: shared.consentMode,
			BrowserMonitoring: &model.AgentApplicationSettingsBrowserMonitoring{
				Ajax:               shared.ajax,
				DistributedTracing: shared.distributedTracing,
				Loader:             loader,
				Privacy:            shared.privacy,
			},
			BrowserPerformance: shared.performance,
			SessionReplay:      shared.sessionReplay,
			SessionTrace:       shared.sessionTrace,
		},
		BrowserSummary: summary, Domain: c.domain, EntityType: c.entityType, GUID: c.guid,
		LastReportingChangeAt: c.lastChange, Name: c.name, Permalink: c.permalink,
		Reporting: c.reporting, ServingApmApplicationID: serving, Settings: settings,
		Tags: gqlTags, Type: c.typ,
	}
	e.outline = &model.BrowserApplicationEntityOutline{
		Account: acct.outline, AccountID: c.accountID, AgentInstallType: &installType,
		AlertSeverity: c.severity, ApplicationID: ptr(b.ID), BrowserSummary: summary,
		Domain: c.domain, EntityType: c.entityType, GUID: c.guid,
		LastReportingChangeAt: c.lastChange, Name: c.name, Permalink: c.permalink,
		Reporting: c.reporting, ServingApmApplicationID: serving, Settings: settings,
		Tags: gqlTags, Type: c.typ,
	}
	w.add(acct, e)
	return e
}

// commonFields are the Entity interface fields every kind shares, as GraphQL values.
type commonFields struct {
	accountID  *int
	severity   *model.EntityAlertSeverity
	domain     *string
	typ        *string
	entityType *model.EntityType
	guid       *string
	name       *string
	permalink  *string
	reporting  *bool
	lastChange *int64
}

func (e *entity) common(acct *simAccount, lastChange time.Time) commonFields {
	c := commonFields{
		accountID:  ptr(acct.id),
		severity:   ptr(e.alertSeverity),
		domain:     ptr(e.domain),
		typ:        ptr(e.typ),
		entityType: ptr(e.entityType),
		guid:       ptr(e.guid),
		name:       ptr(e.name),
		permalink:  ptr("https://one.newrelic.com/redirect/entity/" + e.guid),
		reporting:  ptr(e.reporting),
	}
	if !lastChange.IsZero() {
		c.lastChange = ptr(lastChange.UnixMilli())
	}
	return c
}

func newEdge(typ model.EntityRelationshipEdgeType, source, target *entity, createdAt time.Time) *edge {
	var created int64
	if !createdAt.IsZero() {
		created = createdAt.UnixMilli()
	}
	return &edge{
		typ:    typ,
		source: source,
		target: target,
		gql: &model.EntityRelationshipDetectedEdge{
			CreatedAt: created,
			Source:    &model.EntityRelationshipVertex{AccountID: source.accountID, Entity: source.outline, GUID: source.guid},
			Target:    &model.EntityRelationshipVertex{AccountID: target.accountID, Entity: target.outline, GUID: target.guid},
			Type:      typ,
		},
	}
}

func makeTags(m map[string][]string) []tag {
	tags := make([]tag, 0, len(m))
	for k, vs := range m {
		t := tag{key: k, values: slices.Clone(vs), lower: make([]string, len(vs))}
		for i, v := range vs {
			t.lower[i] = strings.ToLower(v)
		}
		tags = append(tags, t)
	}
	slices.SortFunc(tags, func(a, b tag) int { return strings.Compare(a.key, b.key) })
	return tags
}

func gqlTags(tags []tag) []*model.EntityTag {
	out := make([]*model.EntityTag, len(tags))
	for i, t := range tags {
		vals := make([]*string, len(t.values))
		for j := range t.values {
			vals[j] = &t.values[j]
		}
		out[i] = &model.EntityTag{Key: ptr(t.key), Values: vals}
	}
	return out
}

func envAttributes(env map[string]string) []*model.AgentEnvironmentAttribute {
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*model.AgentEnvironmentAttribute, len(keys))
	for i, k := range keys {
		out[i] = &model.AgentEnvironmentAttribute{Attribute: k, Value: env[k]}
	}
	return out
}

// browserDefaults are the browser settings every simulated browser application shares
// (read-only, so one copy serves all).
type browserDefaults struct {
	consentMode        *model.AgentApplicationSettingsBrowserConsentMode
	ajax               *model.AgentApplicationSettingsBrowserAjax
	distributedTracing *model.AgentApplicationSettingsBrowserDistributedTracing
	privacy            *model.AgentApplicationSettingsBrowserPrivacy
	performance        *model.AgentApplicationSettingsBrowserPerformance
	sessionReplay      *model.AgentApplicationSettingsSessionReplay
	sessionTrace       *model.AgentApplicationSettingsSessionTrace
}

func newBrowserDefaults() *browserDefaults {
	return &browserDefaults{
		consentMode: &model.AgentApplicationSettingsBrowserConsentMode{Enabled: false},
		ajax:        &model.AgentApplicationSettingsBrowserAjax{DenyList: []string{}},
		distributedTracing: &model.AgentApplicationSettingsBrowserDistributedTracing{
			AllowedOrigins: []string{}, CorsEnabled: ptr(false), CorsUseNewrelicHeader: ptr(false),
			CorsUseTracecontextHeaders: ptr(false), Enabled: ptr(true), ExcludeNewrelicHeader: ptr(false),
		},
		privacy:     &model.AgentApplicationSettingsBrowserPrivacy{CookiesEnabled: true},
		performance: &model.AgentApplicationSettingsBrowserPerformance{},
		sessionReplay: &model.AgentApplicationSettingsSessionReplay{
			BlockSelector: "", ErrorSamplingRate: 100, MaskAllInputs: true, SamplingRate: 10,
			MaskInputOptions: &model.AgentApplicationSettingsMaskInputOptions{Email: true, Tel: true},
		},
		sessionTrace: &model.AgentApplicationSettingsSessionTrace{
			Enabled: true, ErrorSamplingRate: 100, SamplingRate: 10,
			Mode: ptr(model.AgentApplicationSettingsSessionTraceModeFixedRate),
		},
	}
}

// jsConfig is the browser agent configuration (browserProperties.jsConfig).
func jsConfig(accountID, appID int, licenseKey string) map[string]any {
	acct, id := strconv.Itoa(accountID), strconv.Itoa(appID)
	return map[string]any{
		"accountID":     acct,
		"agentID":       id,
		"applicationID": id,
		"beacon":        "bam.nr-data.net",
		"errorBeacon":   "bam.nr-data.net",
		"licenseKey":    licenseKey,
		"sa":            1,
		"trustKey":      acct,
	}
}

func jsConfigScript(accountID, appID int, licenseKey string) string {
	acct, id := strconv.Itoa(accountID), strconv.Itoa(appID)
	return `window.NREUM||(NREUM={});NREUM.loader_config={accountID:"` + acct + `",trustKey:"` + acct +
		`",agentID:"` + id + `",licenseKey:"` + licenseKey + `",applicationID:"` + id +
		`"};NREUM.info={beacon:"bam.nr-data.net",errorBeacon:"bam.nr-data.net",licenseKey:"` +
		licenseKey + `",applicationID:"` + id + `",sa:1};`
}

// jsLoaderScript is the copy-paste snippet (browserProperties.jsLoaderScript). The
// loader body itself is elided: it is what the real one carries besides the config.
func jsLoaderScript(accountID, appID int, licenseKey, loader string) string {
	return `<script type="text/javascript">` + "\n" + jsConfigScript(accountID, appID, licenseKey) +
		"\n/* New Relic browser agent loader (" + strings.ToLower(loader) + "), elided by the v2bridge simulator */\n</script>"
}

func ptr[T any](v T) *T { return &v }

func nonZero(v int) *int {
	if v == 0 {
		return nil
	}
	return &v
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (w *world) addMobile(acct *simAccount, m *MobileApplication) *entity {
	e := newEntity(acct, "MOBILE", "APPLICATION", m.ID, m.Name, m.Reporting, cmp.Or(m.AlertSeverity, "NOT_CONFIGURED"), model.EntityTypeMobileApplicationEntity)
	e.tags = makeTags(map[string][]string{"account": {acct.name}, "accountId": {strconv.Itoa(acct.id)}})
	gqlTags := gqlTags(e.tags)
	var summary *model.MobileAppSummaryData
	if s := m.Summary; s != nil && m.Reporting {
		summary = &model.MobileAppSummaryData{
			AppLaunchCount: ptr(s.AppLaunchCount), CrashCount: ptr(s.CrashCount), CrashRate: ptr(s.CrashRate),
			HTTPErrorRate: ptr(s.HTTPErrorRate), HTTPRequestCount: ptr(s.HTTPRequestCount), HTTPRequestRate: ptr(s.HTTPRequestRate),
			HTTPResponseTimeAverage: ptr(s.HTTPResponseTimeAverage), MobileSessionCount: ptr(s.MobileSessionCount),
			NetworkFailureRate: ptr(s.NetworkFailureRate), UsersAffectedCount: ptr(s.UsersAffectedCount),
		}
	}
	c := e.common(acct, time.Time{})
	e.full = &model.MobileApplicationEntity{
		Account: acct.outline, AccountID: c.accountID, AlertSeverity: c.severity, ApplicationID: ptr(m.ID),
		Domain: c.domain, EntityType: c.entityType, GUID: c.guid, Name: c.name, Permalink: c.permalink,
		Reporting: c.reporting, Tags: gqlTags, Type: c.typ, MobileSummary: summary,
		MobileProperties: &model.AgentApplicationSettingsMobileProperties{ApplicationToken: nonEmpty(m.ApplicationToken)},
	}
	e.outline = &model.MobileApplicationEntityOutline{
		Account: acct.outline, AccountID: c.accountID, AlertSeverity: c.severity, ApplicationID: ptr(m.ID),
		Domain: c.domain, EntityType: c.entityType, GUID: c.guid, Name: c.name, Permalink: c.permalink,
		Reporting: c.reporting, Tags: gqlTags, Type: c.typ, MobileSummary: summary,
	}
	w.add(acct, e)
	return e
}

func (w *world) addKeyTransaction(acct *simAccount, kt *KeyTransaction) *entity {
	app := w.byGUID[entityGUID(acct.id, "APM", "APPLICATION", strconv.Itoa(kt.AppID))]
	reporting := app != nil && app.reporting
	e := newEntity(acct, "EXT", "KEY_TRANSACTION", kt.ID, kt.Name, reporting, "NOT_CONFIGURED", model.EntityTypeKeyTransactionEntity)
	e.tags = makeTags(map[string][]string{"account": {acct.name}, "accountId": {strconv.Itoa(acct.id)}})
	c := e.common(acct, time.Time{})
	ka := &model.KeyTransactionApplication{GUID: entityGUID(acct.id, "APM", "APPLICATION", strconv.Itoa(kt.AppID))}
	if app != nil {
		ka.Entity = app.outline
	}
	var browser *float64
	if kt.BrowserApdexTarget > 0 {
		browser = ptr(kt.BrowserApdexTarget)
	}
	e.full = &model.KeyTransactionEntity{
		Account: acct.outline, AccountID: c.accountID, AlertSeverity: c.severity, ApdexTarget: kt.ApdexTarget,
		Application: ka, BrowserApdexTarget: browser, Domain: c.domain, EntityType: c.entityType, GUID: c.guid,
		MetricName: kt.MetricName, Name: c.name, Permalink: c.permalink, Reporting: c.reporting, Tags: gqlTags(e.tags), Type: c.typ,
	}
	e.outline = &model.KeyTransactionEntityOutline{
		Account: acct.outline, AccountID: c.accountID, AlertSeverity: c.severity, Domain: c.domain, EntityType: c.entityType,
		GUID: c.guid, Name: c.name, Permalink: c.permalink, Reporting: c.reporting, Tags: gqlTags(e.tags), Type: c.typ,
	}
	w.add(acct, e)
	return e
}
