package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"unicode/utf8"

	gql "github.com/Khan/genqlient/graphql"
)

// ApmOutline is one entity of an APM application search page (AppList and
// AppSearchPage bind their `entities` field to []ApmOutline). genqlient's generated
// type for that interface-typed list decodes every entity's JSON several times (into
// raw messages, again for __typename, again for the concrete type). This struct receives the same selection in
// one pass of the response decoder. Its JSON names are the selection's field names
// (TestBoundStructsMatchSelections keeps them equal; translate's appFields interface
// fails to compile when a getter is missing).
//
// Scalars are held by value, not behind pointers: a JSON null leaves the zero value,
// which is what every reader made of a nil pointer (translate's deref), and an
// application's scalars and nested objects take a few allocations instead of one each
// (go test -run '^$' -bench GatewayApplicationsList -benchmem ./tests/bench). The two fields whose absence means
// something else than zero are told apart by it: an application id is never 0 (0:
// null, read from the guid instead) and an alert severity is never "" (null: no
// alerting data, health "unknown").
//
// The type name, alert severity and language, a few values repeated on every
// application, are kept as written (JSON text, read by their getters as shared
// strings): a presized page decodes them into its own buffer (outlines) instead of a
// string each.
type ApmOutline struct {
	// Typename is the entity's concrete type; the search asks for APM applications
	// only, and translate skips any other type it may still return.
	Typename          json.RawMessage      `json:"__typename"`
	Guid              string               `json:"guid"`
	AccountId         int                  `json:"accountId"`
	Name              string               `json:"name"`
	Reporting         bool                 `json:"reporting"`
	AlertSeverity     json.RawMessage      `json:"alertSeverity"`
	ApplicationId     int                  `json:"applicationId"`
	Language          json.RawMessage      `json:"language"`
	Settings          *OutlineSettings     `json:"settings"`
	ApmSummary        *OutlineSummary      `json:"apmSummary"`
	ApmBrowserSummary *OutlineBrowserStats `json:"apmBrowserSummary"`
}

// OutlineSettings are an APM application's settings as ApmOutline holds them (the
// ApmSettings selection, by value).
type OutlineSettings struct {
	ApdexTarget      float64 `json:"apdexTarget"`
	ServerSideConfig bool    `json:"serverSideConfig"`
}

// OutlineSummary is an APM application's summary as ApmOutline holds it (the
// ApmSummary selection, by value).
type OutlineSummary struct {
	ApdexScore                float64 `json:"apdexScore"`
	ErrorRate                 float64 `json:"errorRate"`
	HostCount                 int     `json:"hostCount"`
	InstanceCount             int     `json:"instanceCount"`
	WebResponseTimeAverage    float64 `json:"webResponseTimeAverage"`
	WebThroughput             float64 `json:"webThroughput"`
	NonWebResponseTimeAverage float64 `json:"nonWebResponseTimeAverage"`
	NonWebThroughput          float64 `json:"nonWebThroughput"`
	ResponseTimeAverage       float64 `json:"responseTimeAverage"`
	Throughput                float64 `json:"throughput"`
}

// OutlineBrowserStats is an APM application's browser summary as ApmOutline holds it
// (the ApmBrowserSummary selection, by value).
type OutlineBrowserStats struct {
	PageLoadTimeAverage float64 `json:"pageLoadTimeAverage"`
	PageLoadThroughput  float64 `json:"pageLoadThroughput"`
}

// IsApmApplication reports whether the entity is an APM application (its outline, or
// the entity itself in ApmEntity); an entity without a type name is taken as one.
func (v *ApmOutline) IsApmApplication() bool {
	t := textOf(v.Typename, apmTypenames)
	return t == "" || t == apmTypenames[0] || t == apmTypenames[1]
}

// apmTypenames are the type names an APM application's outline or entity answers with.
var apmTypenames = []string{"ApmApplicationEntityOutline", "ApmApplicationEntity"}

// alertSeverities are EntityAlertSeverity's values as strings.
var alertSeverities = []string{string(EntityAlertSeverityCritical), string(EntityAlertSeverityNotAlerting),
	string(EntityAlertSeverityNotConfigured), string(EntityAlertSeverityWarning)}

// agentLanguages are the languages of New Relic's APM agents (Go, Java, .NET, Node.js,
// PHP, Python and Ruby in docs-website
// src/content/docs/apm/new-relic-apm/getting-started/introduction-apm.mdx @ 0158026f),
// lower-case: only a hint that saves a string, since any other value is read as well.
var agentLanguages = []string{"go", "java", "dotnet", "nodejs", "php", "python", "ruby"}

// textOf is the string a JSON text holds ("" for null or nothing): one of known when
// it is one (no allocation), else a string of its own.
func textOf(raw json.RawMessage, known []string) string {
	text, ok := StringText(raw)
	if !ok {
		return ""
	}
	for _, k := range known {
		if string(text) == k {
			return k
		}
	}
	return string(text)
}

// StringText is the contents of a JSON string kept as written (ok): its bytes as
// written when they need no decoding (no escape, valid UTF-8: no allocation), else
// decoded as encoding/json decodes them. Null, nothing or any other value is not one.
func StringText(raw json.RawMessage) (text []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// GetGuid returns the entity guid ("" when null).
func (v *ApmOutline) GetGuid() string { return v.Guid }

// GetAccountId returns the account id (0 when null).
func (v *ApmOutline) GetAccountId() int { return v.AccountId }

// GetName returns the application name.
func (v *ApmOutline) GetName() string { return v.Name }

// GetReporting returns whether the application reports.
func (v *ApmOutline) GetReporting() bool { return v.Reporting }

// GetAlertSeverity returns the entity's alert severity ("" when null).
func (v *ApmOutline) GetAlertSeverity() EntityAlertSeverity {
	return EntityAlertSeverity(textOf(v.AlertSeverity, alertSeverities))
}

// GetApplicationId returns the REST v2 application id (0 when null).
func (v *ApmOutline) GetApplicationId() int { return v.ApplicationId }

// GetLanguage returns the agent language.
func (v *ApmOutline) GetLanguage() string { return textOf(v.Language, agentLanguages) }

// GetSettings returns the APM settings (nil when null).
func (v *ApmOutline) GetSettings() *OutlineSettings { return v.Settings }

// GetApmSummary returns the APM summary (nil when null).
func (v *ApmOutline) GetApmSummary() *OutlineSummary { return v.ApmSummary }

// GetApmBrowserSummary returns the browser summary (nil when null).
func (v *ApmOutline) GetApmBrowserSummary() *OutlineBrowserStats { return v.ApmBrowserSummary }

// ApmEntity is AppShow's application (its `entity` field is bound to it): the
// AppEntityFields of an ApmApplicationEntity, decoded like ApmOutline in one pass, and
// the related browser applications.
type ApmEntity struct {
	ApmOutline
	Browser *RelatedBrowsers `json:"browser"`
}

// RelatedBrowsers are the browser applications related to an APM application, on
// either side of the relationship.
type RelatedBrowsers struct {
	Results []*RelatedBrowser `json:"results"`
}

// RelatedBrowser is one relationship: the browser application is its source or target.
type RelatedBrowser struct {
	Source *RelatedEnd `json:"source"`
	Target *RelatedEnd `json:"target"`
}

// RelatedEnd is one side of a relationship.
type RelatedEnd struct {
	Entity *BrowserOutline `json:"entity"`
}

// BrowserOutline is one browser application of an entity search (AppList's browsers,
// BrowserPage, BrowserSearch) or of AppShow's relationships, decoded in one pass like
// ApmOutline; the operations select the BrowserOutlineFields fragment (and BrowserSearch
// the name).
type BrowserOutline struct {
	Typename                *string                 `json:"__typename"`
	Guid                    *string                 `json:"guid"`
	Name                    *string                 `json:"name"`
	ApplicationId           *int                    `json:"applicationId"`
	ServingApmApplicationId *int                    `json:"servingApmApplicationId"`
	Settings                *BrowserOutlineSettings `json:"settings"`
}

// BrowserOutlineSettings are the browser application settings the gateway reads.
type BrowserOutlineSettings struct {
	ApdexTarget *float64 `json:"apdexTarget"`
}

// IsBrowserApplication reports whether the entity is a browser application outline.
func (v *BrowserOutline) IsBrowserApplication() bool {
	return v != nil && (v.Typename == nil || *v.Typename == "BrowserApplicationEntityOutline")
}

// minOutlineJSON is the fewest bytes an ApmOutline takes in an answer: its keys alone
// (the selection's fifteen names with quotes and colons, ApmOutlineFields) are over 200.
const minOutlineJSON = 200

// searchPage is the most entities an entity search answers per page (translate.PageSize,
// which is REST v2's application page too).
const searchPage = 200

// outlines is the capacity for the applications of a search page in an answer of size
// bytes: a page holds at most searchPage, and never more than the answer can. Each
// application's settings and summary are decoded into its element of one array each
// (the decoder fills a non-nil pointer's value in place, and sets it to nil on null),
// instead of an allocation each; its type name, alert severity and language into its
// part of one buffer. An entity of another type than the fragment's (whose
// answer holds its __typename alone) keeps them as presized; translate skips it
// (IsApmApplication).
func outlines(size int) []ApmOutline {
	n := min(searchPage, size/minOutlineJSON)
	o := make([]ApmOutline, n)
	settings := make([]OutlineSettings, n)
	summaries := make([]OutlineSummary, n)
	room := make([]byte, n*textRoom)
	for i := range o {
		o[i].Settings, o[i].ApmSummary = &settings[i], &summaries[i]
		t := room[i*textRoom : (i+1)*textRoom]
		o[i].Typename, o[i].AlertSeverity, o[i].Language = t[0:0:32], t[32:32:48], t[48:48:textRoom]
	}
	return o[:0]
}

// textRoom is the bytes presized for an application's type name (32), alert severity
// (16) and language (16), each with its quotes: what NerdGraph writes (a longer one
// takes an allocation of its own).
const textRoom = 64

// presize gives AppList's search page its capacity before the answer is decoded into
// it (presizer): a page of 200 is allocated once instead of grown by doubling
// (BenchmarkGatewayApplicationsList's B/op), and, when the call asks for the
// account's inventory, its rows go into a pooled buffer (applications_inventory.go).
// Only fields the answer holds, as a value or as null (TestPresizedOutlines).
func (d *AppListResponse) presize(_ context.Context, req *gql.Request, size int) bool {
	if d.Actor != nil {
		return false
	}
	d.Actor = &AppListActor{EntitySearch: &AppListActorEntitySearch{
		Results: &AppListActorEntitySearchResultsEntitySearchResult{Entities: outlines(size)}}}
	if in, ok := req.Variables.(*__AppListInput); ok && in.WithInventory {
		if buf := inventoryBuffer(); buf != nil {
			d.Actor.Account = &AppListActorAccount{Inventory: &AppListActorAccountInventoryNrdbResultContainer{Results: buf}}
		}
	}
	return true
}

func (d *AppListResponse) unpresize() { *d = AppListResponse{} }

// presize gives AppSearchPage's page its capacity, as AppList's (presizer).
func (d *AppSearchPageResponse) presize(_ context.Context, _ *gql.Request, size int) bool {
	if d.Actor != nil {
		return false
	}
	d.Actor = &AppSearchPageActor{EntitySearch: &AppSearchPageActorEntitySearch{
		Results: &AppSearchPageActorEntitySearchResultsEntitySearchResult{Entities: outlines(size)}}}
	return true
}

func (d *AppSearchPageResponse) unpresize() { *d = AppSearchPageResponse{} }

// The responses that ready themselves for their answers (presize.go).
var (
	_ presizer = (*AppListResponse)(nil)
	_ presizer = (*AppSearchPageResponse)(nil)
)
