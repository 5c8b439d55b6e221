package graphql

// ApmOutline is one entity of an APM application search page (AppList and
// AppSearchPage bind their `entities` field to []ApmOutline). genqlient's generated
// type for that interface-typed list decodes every entity's JSON several times (into
// raw messages, again for __typename, again for the concrete type); a page of 200
// applications spent most of its CPU there. This struct receives the same selection in
// one pass of the response decoder. Its JSON names are the selection's field names, so
// a field missing here is a field the operation selects but never reads: keep the two
// in step (translate's appFields interface fails to compile when a getter is missing).
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

// IsApmApplication reports whether the entity is an APM application outline.
func (v *ApmOutline) IsApmApplication() bool {
	return v.Typename == nil || *v.Typename == "ApmApplicationEntityOutline"
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
