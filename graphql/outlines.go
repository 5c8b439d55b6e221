package graphql

// ApmOutline is one entity of an APM application search page (AppList and
// AppSearchPage bind their `entities` field to []ApmOutline). genqlient's generated
// type for that interface-typed list decodes every entity's JSON several times (into
// raw messages, again for __typename, again for the concrete type); a page of 200
// applications spent most of its CPU there. This struct receives the same selection in
// one pass of the response decoder. Its JSON names are the selection's field names
// (TestBoundStructsMatchSelections keeps them equal; translate's appFields interface
// fails to compile when a getter is missing).
type ApmOutline struct {
	// Typename is the entity's concrete type; the search asks for APM applications
	// only, and translate skips any other type it may still return.
	Typename          *string              `json:"__typename"`
	Guid              *string              `json:"guid"`
	AccountId         *int                 `json:"accountId"`
	Name              *string              `json:"name"`
	Reporting         *bool                `json:"reporting"`
	AlertSeverity     *EntityAlertSeverity `json:"alertSeverity"`
	ApplicationId     *int                 `json:"applicationId"`
	Language          *string              `json:"language"`
	Settings          *ApmSettings         `json:"settings"`
	ApmSummary        *ApmSummary          `json:"apmSummary"`
	ApmBrowserSummary *ApmBrowserSummary   `json:"apmBrowserSummary"`
}

// IsApmApplication reports whether the entity is an APM application (its outline, or
// the entity itself in ApmEntity).
func (v *ApmOutline) IsApmApplication() bool {
	return v.Typename == nil || *v.Typename == "ApmApplicationEntityOutline" || *v.Typename == "ApmApplicationEntity"
}

// GetGuid returns the entity guid.
func (v *ApmOutline) GetGuid() *string { return v.Guid }

// GetAccountId returns the account id.
func (v *ApmOutline) GetAccountId() *int { return v.AccountId }

// GetName returns the application name.
func (v *ApmOutline) GetName() *string { return v.Name }

// GetReporting returns whether the application reports.
func (v *ApmOutline) GetReporting() *bool { return v.Reporting }

// GetAlertSeverity returns the entity's alert severity.
func (v *ApmOutline) GetAlertSeverity() *EntityAlertSeverity { return v.AlertSeverity }

// GetApplicationId returns the REST v2 application id.
func (v *ApmOutline) GetApplicationId() *int { return v.ApplicationId }

// GetLanguage returns the agent language.
func (v *ApmOutline) GetLanguage() *string { return v.Language }

// GetSettings returns the APM settings.
func (v *ApmOutline) GetSettings() *ApmSettings { return v.Settings }

// GetApmSummary returns the APM summary.
func (v *ApmOutline) GetApmSummary() *ApmSummary { return v.ApmSummary }

// GetApmBrowserSummary returns the browser summary.
func (v *ApmOutline) GetApmBrowserSummary() *ApmBrowserSummary { return v.ApmBrowserSummary }

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
