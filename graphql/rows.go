package graphql

// EntityRef is an entity looked up only to know that it exists in an account
// (MetricData binds its `entity` to it): genqlient's generated interface type for
// `entity` decodes the whole actor twice, once into raw messages and again for the
// concrete type; this plain struct takes the same selection in one pass.
type EntityRef struct {
	Typename  *string `json:"__typename"`
	Guid      *string `json:"guid"`
	AccountId *int    `json:"accountId"`
}

// GetAccountId returns the entity's account id.
func (v *EntityRef) GetAccountId() *int { return v.AccountId }

// TimesliceRow is one row of the metric data NRQL (translate/metrics.go: one FACET
// metricTimesliceName TIMESERIES bucket of New Relic's published timeslice functions),
// which MetricData binds its `results` to, so the rows decode in the response's one
// pass instead of a raw copy per row decoded again. Facet is the metric name (a string;
// anything else is kept as decoded). The field names are the NRQL aliases. The rows
// are also the metric's slices (translate.sliceRaw): sorted in place and sub-sliced per
// name, never copied.
type TimesliceRow struct {
	Facet any     `json:"facet"`
	Begin float64 `json:"beginTimeSeconds"`
	End   float64 `json:"endTimeSeconds"`
	C     float64 `json:"c"`
	S     float64 `json:"s"`
	Ex    float64 `json:"ex"`
	Mn    float64 `json:"mn"`
	Mx    float64 `json:"mx"`
	Sq    float64 `json:"sq"`
	Sd    float64 `json:"sd"`
	Exr   float64 `json:"exr"`
	Exm   float64 `json:"exm"`
}
