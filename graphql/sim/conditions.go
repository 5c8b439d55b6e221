package sim

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/v2bridge/v2bridge/graphql/sim/internal/bind"
	"github.com/v2bridge/v2bridge/graphql/sim/model"
)

// NRQL alert conditions (alerts.nrqlConditionsSearch, alerts.nrqlCondition, the static
// and baseline create/update mutations, alertsConditionDelete) and the NRQL form of
// every condition (alerts.asNrqlConditionsSearch). Conditions live in Data (accounts[].
// nrqlConditions and legacyConditions); mutations go through Server.mutate, so readers
// always see a whole write.

const (
	condStatic   = "STATIC"
	condBaseline = "BASELINE"

	// NerdGraph's defaults for what a condition leaves unset.
	defaultViolationTimeLimit = 259200 // 3 days
	defaultAggregationWindow  = 60
	defaultAggregationDelay   = 120
	defaultAggregationTimer   = 60
	defaultPredictBy          = 3600
)

// Allowed values (functions, so that no package-level state is mutable).
func conditionTypes() []string  { return []string{condBaseline, condStatic} }
func termPriorities() []string  { return []string{"CRITICAL", "WARNING"} }
func termOccurrences() []string { return []string{"ALL", "AT_LEAST_ONCE"} }
func baselineDirections() []string {
	return []string{"LOWER_ONLY", "UPPER_AND_LOWER", "UPPER_ONLY"}
}
func termOperators() []string {
	return []string{"ABOVE", "ABOVE_OR_EQUALS", "BELOW", "BELOW_OR_EQUALS", "EQUALS", "NOT_EQUALS"}
}
func aggregationMethods() []string { return []string{"CADENCE", "EVENT_FLOW", "EVENT_TIMER"} }
func fillOptions() []string        { return []string{"LAST_VALUE", "NONE", "STATIC"} }
func valueFunctions() []string     { return []string{"SINGLE_VALUE", "SUM"} }
func seasonalities() []string {
	return []string{"DAILY", "HOURLY", "NEW_RELIC_CALCULATION", "NONE", "WEEKLY"}
}

// legacyProducts are the source products of legacy conditions (NRQL conditions are the
// NRQL product).
func legacyProducts() []string {
	return []string{"APM", "BROWSER", "INFRASTRUCTURE", "MOBILE", "SERVERS", "SYNTHETICS"}
}

// ---------------------------------------------------------------------------------
// Validation (Data.Validate, and every mutation through buildWorld)

// alertConditions checks every account's conditions: ids unique among all conditions,
// policies of the same account, data accounts that exist, and the condition itself.
func (v *validator) alertConditions(d *Data) {
	accounts := map[int]bool{}
	for _, a := range d.Accounts {
		accounts[a.ID] = true
	}
	ids := map[int]string{}
	for i, a := range d.Accounts {
		policies := map[int]bool{}
		for _, p := range a.AlertPolicies {
			policies[p.ID] = true
		}
		for j, c := range a.NrqlConditions {
			v.condition(fmt.Sprintf("accounts[%d].nrqlConditions[%d]", i, j), c, policies, accounts, ids)
		}
		for j, c := range a.LegacyConditions {
			p := fmt.Sprintf("accounts[%d].legacyConditions[%d]", i, j)
			v.oneOf(p+".sourceProduct", c.SourceProduct, legacyProducts())
			v.condition(p, c.NrqlCondition, policies, accounts, ids)
		}
	}
}

func (v *validator) condition(p string, c NrqlCondition, policies, accounts map[int]bool, ids map[int]string) {
	switch prev, dup := ids[c.ID]; {
	case c.ID <= 0 || c.ID > math.MaxInt32:
		v.addf("%s.id: %d is not a positive 32-bit condition id", p, c.ID)
	case dup:
		v.addf("%s.id: %d already used by %s", p, c.ID, prev)
	default:
		ids[c.ID] = p
	}
	if !policies[c.PolicyID] {
		v.addf("%s.policyId: no policy %d in the account", p, c.PolicyID)
	}
	if c.Nrql.DataAccountID != 0 && !accounts[c.Nrql.DataAccountID] {
		v.addf("%s.nrql.dataAccountId: no account %d", p, c.Nrql.DataAccountID)
	}
	for _, problem := range conditionProblems(c) {
		v.addf("%s.%s", p, problem)
	}
}

// conditionProblems lists what NerdGraph would reject in a condition, each as
// "field: problem" with the field named as in the GraphQL input.
func conditionProblems(c NrqlCondition) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	oneOf := func(field, got string, allowed []string) {
		if !slices.Contains(allowed, got) {
			add("%s: %q is not one of %s", field, got, strings.Join(allowed, ", "))
		}
	}
	if strings.TrimSpace(c.Name) == "" {
		add("name: required")
	}
	oneOf("type", c.Type, conditionTypes())
	baseline := c.Type == condBaseline
	if strings.TrimSpace(c.Nrql.Query) == "" {
		add("nrql.query: required")
	}
	if c.Nrql.DataAccountID < 0 {
		add("nrql.dataAccountId: must be positive")
	}

	if baseline {
		oneOf("baselineDirection", c.BaselineDirection, baselineDirections())
		if c.ValueFunction != "" {
			add("valueFunction: only static conditions have one")
		}
		if c.SignalSeasonality != "" {
			oneOf("signalSeasonality", c.SignalSeasonality, seasonalities())
		}
	} else {
		if c.BaselineDirection != "" {
			add("baselineDirection: only baseline conditions have one")
		}
		if c.SignalSeasonality != "" {
			add("signalSeasonality: only baseline conditions have one")
		}
		if c.ValueFunction != "" {
			oneOf("valueFunction", c.ValueFunction, valueFunctions())
		}
	}
	if l := c.ViolationTimeLimitSeconds; l != 0 && (l < 300 || l > 2592000) {
		add("violationTimeLimitSeconds: %g is not between 300 and 2592000", l)
	}

	s := c.Signal
	method := cmpOr(s.AggregationMethod, "EVENT_FLOW")
	oneOf("signal.aggregationMethod", method, aggregationMethods())
	window := float64(defaultAggregationWindow)
	if s.AggregationWindow != nil {
		window = *s.AggregationWindow
		if window < 30 || window > 21600 {
			add("signal.aggregationWindow: %g is not between 30 and 21600 seconds", window)
			window = defaultAggregationWindow
		}
	}
	if s.AggregationDelay != nil {
		if method == "EVENT_TIMER" {
			add("signal.aggregationDelay: not allowed with aggregationMethod EVENT_TIMER (use aggregationTimer)")
		} else if *s.AggregationDelay < 0 {
			add("signal.aggregationDelay: must not be negative")
		}
	}
	if s.AggregationTimer != nil {
		if method != "EVENT_TIMER" {
			add("signal.aggregationTimer: only allowed with aggregationMethod EVENT_TIMER")
		} else if *s.AggregationTimer < 5 || *s.AggregationTimer > 1200 {
			add("signal.aggregationTimer: %g is not between 5 and 1200 seconds", *s.AggregationTimer)
		}
	}
	for _, f := range []struct {
		name string
		val  *float64
	}{{"evaluationDelay", s.EvaluationDelay}, {"pollingFrequency", s.PollingFrequency}} {
		if f.val != nil && *f.val < 0 {
			add("signal.%s: must not be negative", f.name)
		}
	}
	if sb := s.SlideBy; sb != nil && (*sb <= 0 || *sb >= window || math.Mod(window, *sb) != 0) {
		add("signal.slideBy: %g must be less than the aggregation window (%g s) and divide it", *sb, window)
	}
	fill := cmpOr(s.FillOption, "NONE")
	oneOf("signal.fillOption", fill, fillOptions())
	if fill == "STATIC" && s.FillValue == nil {
		add("signal.fillValue: required with fillOption STATIC")
	}
	if d := c.Expiration.ExpirationDuration; d != nil && (*d < 30 || *d > 172800) {
		add("expiration.expirationDuration: %g is not between 30 and 172800 seconds", *d)
	}

	if len(c.Terms) == 0 {
		add("terms: at least one term is required")
	}
	minDuration := 60.0
	if baseline || c.ValueFunction == "SUM" {
		minDuration = 120
	}
	seen := map[string]bool{}
	for i, t := range c.Terms {
		tp := fmt.Sprintf("terms[%d]", i)
		switch {
		case !slices.Contains(termPriorities(), t.Priority):
			oneOf(tp+".priority", t.Priority, termPriorities())
		case seen[t.Priority]:
			add("%s.priority: more than one %s term", tp, t.Priority)
		}
		seen[t.Priority] = true
		if baseline {
			oneOf(tp+".operator", t.Operator, []string{"ABOVE"})
		} else {
			oneOf(tp+".operator", t.Operator, termOperators())
		}
		oneOf(tp+".thresholdOccurrences", t.ThresholdOccurrences, termOccurrences())
		if math.IsNaN(t.Threshold) || math.IsInf(t.Threshold, 0) {
			add("%s.threshold: must be a number", tp)
		}
		switch d := t.ThresholdDuration; {
		case d < minDuration || d > 86400:
			add("%s.thresholdDuration: %g is not between %g and 86400 seconds", tp, d, minDuration)
		case math.Mod(d, window) != 0:
			add("%s.thresholdDuration: %g is not a multiple of the aggregation window (%g s)", tp, d, window)
		}
		if t.Prediction != nil {
			if baseline {
				add("%s.prediction: only static conditions predict", tp)
			} else if t.Prediction.PredictBy < 0 {
				add("%s.prediction.predictBy: must not be negative", tp)
			}
		}
	}
	return out
}

// ---------------------------------------------------------------------------------
// Reads

// conditionCursor and parseConditionCursor are the opaque cursors of one search kind.
func conditionCursor(kind string, offset int) *string {
	c := base64.StdEncoding.EncodeToString([]byte(kind + ":" + strconv.Itoa(offset)))
	return &c
}

func parseConditionCursor(kind string, c *string) (int, error) {
	if c == nil || *c == "" {
		return 0, nil
	}
	b, err := base64.StdEncoding.DecodeString(*c)
	rest, ok := strings.CutPrefix(string(b), kind+":")
	n, convErr := strconv.Atoi(rest)
	if err != nil || !ok || convErr != nil || n < 0 {
		return 0, gqlError(classInvalidInput, "Invalid cursor")
	}
	return n, nil
}

// conditionPage cuts one page (alertsPageSize) of n matches from offset: the bounds
// and the next cursor.
func conditionPage(kind string, offset, n int) (lo, hi int, next *string) {
	lo = min(offset, n)
	hi = min(lo+alertsPageSize, n)
	if hi < n {
		next = conditionCursor(kind, hi)
	}
	return lo, hi, next
}

// readableAccount is the account a read may look at, or a FORBIDDEN error.
func (r alertsResolver) readableAccount(ctx context.Context, accountID int) (*Account, error) {
	if req := requestFrom(ctx); req == nil || !req.caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	a := r.account(accountID)
	if a == nil {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	return a, nil
}

// nameMatches applies the name (exact, ignoring case, as policiesSearch) and nameLike
// (substring, ignoring case) criteria.
func nameMatches(name string, exact, like *string) bool {
	if exact != nil && !strings.EqualFold(name, *exact) {
		return false
	}
	return like == nil || strings.Contains(strings.ToLower(name), strings.ToLower(*like))
}

func hasOperator(c NrqlCondition, op *model.AlertsNrqlConditionTermsOperator) bool {
	if op == nil {
		return true
	}
	for _, t := range c.Terms {
		if t.Operator == string(*op) {
			return true
		}
	}
	return false
}

// NrqlConditionsSearch finds the account's NRQL conditions, by id, 100 a page. Criteria:
// policyId (exact), name (exact, ignoring case), nameLike (substring, ignoring case),
// query (exact NRQL text), queryLike (substring, ignoring case) and termsOperator (some
// term uses it); all given must hold.
func (r alertsResolver) NrqlConditionsSearch(ctx context.Context, obj *bind.AlertsAccount, cursor *string, c *model.AlertsNrqlConditionsSearchCriteriaInput) (*model.AlertsNrqlConditionsSearchResultSet, error) {
	a, err := r.readableAccount(ctx, obj.AccountID)
	if err != nil {
		return nil, err
	}
	offset, err := parseConditionCursor("nrqlConditions", cursor)
	if err != nil {
		return nil, err
	}
	var matches []NrqlCondition
	for _, cond := range a.NrqlConditions {
		if c != nil {
			if c.PolicyID != nil && *c.PolicyID != strconv.Itoa(cond.PolicyID) ||
				!nameMatches(cond.Name, c.Name, c.NameLike) ||
				c.Query != nil && cond.Nrql.Query != *c.Query ||
				c.QueryLike != nil && !strings.Contains(strings.ToLower(cond.Nrql.Query), strings.ToLower(*c.QueryLike)) ||
				!hasOperator(cond, c.TermsOperator) {
				continue
			}
		}
		matches = append(matches, cond)
	}
	sort.Slice(matches, func(i, j int) bool { return matches[i].ID < matches[j].ID })
	lo, hi, next := conditionPage("nrqlConditions", offset, len(matches))
	out := &model.AlertsNrqlConditionsSearchResultSet{TotalCount: len(matches), NextCursor: next,
		NrqlConditions: []model.AlertsNrqlCondition{}}
	for _, cond := range matches[lo:hi] {
		out.NrqlConditions = append(out.NrqlConditions, conditionModel(a.ID, cond))
	}
	return out, nil
}

// NrqlCondition is one NRQL condition of the account by id; an unknown id (or the id
// of a condition of another product) is a NOT_FOUND error, as NerdGraph's "Not Found".
func (r alertsResolver) NrqlCondition(ctx context.Context, obj *bind.AlertsAccount, id string) (model.AlertsNrqlCondition, error) {
	a, err := r.readableAccount(ctx, obj.AccountID)
	if err != nil {
		return nil, err
	}
	for _, c := range a.NrqlConditions {
		if strconv.Itoa(c.ID) == id {
			return conditionModel(a.ID, c), nil
		}
	}
	return nil, conditionNotFound(id)
}

// AsNrqlConditionsSearch finds every condition of the account in NRQL form: NRQL
// conditions (sourceProduct NRQL) and the legacy ones, by id, 100 a page. Criteria:
// policyId, name, nameLike, sourceProduct (any of) and termsOperator.
func (r alertsResolver) AsNrqlConditionsSearch(ctx context.Context, obj *bind.AlertsAccount, cursor *string, c *model.AlertsAsNrqlConditionsSearchCriteriaInput) (*model.AlertsAsNrqlConditionsSearchResultSet, error) {
	a, err := r.readableAccount(ctx, obj.AccountID)
	if err != nil {
		return nil, err
	}
	offset, err := parseConditionCursor("asNrqlConditions", cursor)
	if err != nil {
		return nil, err
	}
	all := make([]LegacyCondition, 0, len(a.NrqlConditions)+len(a.LegacyConditions))
	for _, cond := range a.NrqlConditions {
		all = append(all, LegacyCondition{SourceProduct: "NRQL", NrqlCondition: cond})
	}
	all = append(all, a.LegacyConditions...)
	var matches []LegacyCondition
	for _, cond := range all {
		if c != nil {
			if c.PolicyID != nil && *c.PolicyID != strconv.Itoa(cond.PolicyID) ||
				!nameMatches(cond.Name, c.Name, c.NameLike) ||
				len(c.SourceProduct) > 0 && !slices.Contains(c.SourceProduct, model.AlertsAsNrqlSourceProduct(cond.SourceProduct)) ||
				!hasOperator(cond.NrqlCondition, c.TermsOperator) {
				continue
			}
		}
		matches = append(matches, cond)
	}
	sort.Slice(matches, func(i, j int) bool { return matches[i].ID < matches[j].ID })
	lo, hi, next := conditionPage("asNrqlConditions", offset, len(matches))
	out := &model.AlertsAsNrqlConditionsSearchResultSet{TotalCount: len(matches), NextCursor: next,
		NrqlConditions: []model.AlertsAsNrqlCondition{}}
	for _, cond := range matches[lo:hi] {
		out.NrqlConditions = append(out.NrqlConditions, asNrqlModel(a.ID, cond))
	}
	return out, nil
}

// ---------------------------------------------------------------------------------
// GraphQL objects

func conditionNotFound(id string) error {
	return gqlError(classNotFound, "Not Found: no NRQL condition with id %s in the account", id)
}

// conditionGUID is the condition's entity guid (domain AIOPS, type CONDITION).
func conditionGUID(accountID, id int) string {
	return entityGUID(accountID, "AIOPS", "CONDITION", strconv.Itoa(id))
}

func millis(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	return ptr(t.UnixMilli())
}

func nrqlModel(q NrqlQuery) *model.AlertsNrqlConditionQuery {
	return &model.AlertsNrqlConditionQuery{Query: q.Query, DataAccountID: nonZero(q.DataAccountID)}
}

// signalModel is the signal with NerdGraph's defaults filled in.
func signalModel(s NrqlSignal) *model.AlertsNrqlConditionSignal {
	method := model.AlertsSignalAggregationMethod(cmpOr(s.AggregationMethod, "EVENT_FLOW"))
	out := &model.AlertsNrqlConditionSignal{
		AggregationMethod: &method,
		AggregationWindow: ptr(float64(defaultAggregationWindow)),
		EvaluationDelay:   s.EvaluationDelay,
		FillOption:        ptr(model.AlertsFillOption(cmpOr(s.FillOption, "NONE"))),
		FillValue:         s.FillValue,
		PollingFrequency:  s.PollingFrequency,
		SlideBy:           s.SlideBy,
	}
	if s.AggregationWindow != nil {
		out.AggregationWindow = s.AggregationWindow
	}
	if method == model.AlertsSignalAggregationMethodEventTimer {
		out.AggregationTimer = ptr(float64(defaultAggregationTimer))
		if s.AggregationTimer != nil {
			out.AggregationTimer = s.AggregationTimer
		}
	} else {
		out.AggregationDelay = ptr(float64(defaultAggregationDelay))
		if s.AggregationDelay != nil {
			out.AggregationDelay = s.AggregationDelay
		}
	}
	return out
}

func expirationModel(e NrqlExpiration) *model.AlertsNrqlConditionExpiration {
	return &model.AlertsNrqlConditionExpiration{ExpirationDuration: e.ExpirationDuration,
		OpenViolationOnExpiration: ptr(e.OpenViolationOnExpiration), CloseViolationsOnExpiration: ptr(e.CloseViolationsOnExpiration),
		IgnoreOnExpectedTermination: ptr(e.IgnoreOnExpectedTermination)}
}

func violationLimit(c NrqlCondition) *float64 {
	if c.ViolationTimeLimitSeconds == 0 {
		return ptr(float64(defaultViolationTimeLimit))
	}
	return ptr(c.ViolationTimeLimitSeconds)
}

func dynamicTerms(ts []NrqlTerm) []*model.AlertsNrqlConditionTerms {
	out := make([]*model.AlertsNrqlConditionTerms, 0, len(ts))
	for _, t := range ts {
		out = append(out, &model.AlertsNrqlConditionTerms{Operator: model.AlertsNrqlConditionTermsOperator(t.Operator),
			Priority: model.AlertsNrqlConditionPriority(t.Priority), Threshold: t.Threshold, ThresholdDuration: t.ThresholdDuration,
			ThresholdOccurrences:         model.AlertsNrqlConditionThresholdOccurrences(t.ThresholdOccurrences),
			DisableHealthStatusReporting: ptr(t.DisableHealthStatusReporting)})
	}
	return out
}

func staticTerms(ts []NrqlTerm) []*model.AlertsNrqlConditionTermsWithPrediction {
	out := make([]*model.AlertsNrqlConditionTermsWithPrediction, 0, len(ts))
	for _, d := range dynamicTerms(ts) {
		out = append(out, &model.AlertsNrqlConditionTermsWithPrediction{Operator: d.Operator, Priority: d.Priority,
			Threshold: d.Threshold, ThresholdDuration: d.ThresholdDuration, ThresholdOccurrences: d.ThresholdOccurrences,
			DisableHealthStatusReporting: d.DisableHealthStatusReporting})
	}
	for i, t := range ts {
		if p := t.Prediction; p != nil {
			out[i].Prediction = &model.AlertsNrqlConditionPrediction{PredictBy: ptr(p.PredictBy),
				PreferPredictionViolation: ptr(p.PreferPredictionViolation)}
		}
	}
	return out
}

func staticModel(accountID int, c NrqlCondition) *model.AlertsNrqlStaticCondition {
	return &model.AlertsNrqlStaticCondition{
		ID: strconv.Itoa(c.ID), PolicyID: strconv.Itoa(c.PolicyID), Name: c.Name, Enabled: c.Enabled,
		Type: model.AlertsNrqlConditionTypeStatic, EntityGUID: conditionGUID(accountID, c.ID),
		Description: nonEmpty(c.Description), RunbookURL: nonEmpty(c.RunbookURL), TitleTemplate: nonEmpty(c.TitleTemplate),
		TargetEntity: nonEmpty(c.TargetEntity), Nrql: nrqlModel(c.Nrql), Signal: signalModel(c.Signal),
		Expiration: expirationModel(c.Expiration), Terms: staticTerms(c.Terms), ViolationTimeLimitSeconds: violationLimit(c),
		CreatedAt: millis(c.CreatedAt), UpdatedAt: millis(c.UpdatedAt),
	}
}

func baselineModel(accountID int, c NrqlCondition) *model.AlertsNrqlBaselineCondition {
	out := &model.AlertsNrqlBaselineCondition{
		ID: strconv.Itoa(c.ID), PolicyID: strconv.Itoa(c.PolicyID), Name: c.Name, Enabled: c.Enabled,
		Type: model.AlertsNrqlConditionTypeBaseline, EntityGUID: conditionGUID(accountID, c.ID),
		BaselineDirection: model.AlertsNrqlBaselineDirection(c.BaselineDirection),
		Description:       nonEmpty(c.Description), RunbookURL: nonEmpty(c.RunbookURL), TitleTemplate: nonEmpty(c.TitleTemplate),
		TargetEntity: nonEmpty(c.TargetEntity), Nrql: nrqlModel(c.Nrql), Signal: signalModel(c.Signal),
		Expiration: expirationModel(c.Expiration), Terms: dynamicTerms(c.Terms), ViolationTimeLimitSeconds: violationLimit(c),
		CreatedAt: millis(c.CreatedAt), UpdatedAt: millis(c.UpdatedAt),
	}
	if c.SignalSeasonality != "" {
		out.SignalSeasonality = ptr(model.AlertsNrqlSignalSeasonality(c.SignalSeasonality))
	}
	return out
}

func conditionModel(accountID int, c NrqlCondition) model.AlertsNrqlCondition {
	if c.Type == condBaseline {
		return baselineModel(accountID, c)
	}
	return staticModel(accountID, c)
}

func asNrqlModel(accountID int, lc LegacyCondition) model.AlertsAsNrqlCondition {
	c := lc.NrqlCondition
	terms := []model.AlertsNrqlTerms{}
	for _, t := range dynamicTerms(c.Terms) {
		terms = append(terms, t)
	}
	product := model.AlertsAsNrqlSourceProduct(lc.SourceProduct)
	if c.Type == condBaseline {
		out := &model.AlertsAsNrqlBaselineCondition{
			ID: strconv.Itoa(c.ID), PolicyID: strconv.Itoa(c.PolicyID), Name: c.Name, Enabled: c.Enabled,
			Type: model.AlertsNrqlConditionTypeBaseline, SourceProduct: product, EntityGUID: conditionGUID(accountID, c.ID),
			BaselineDirection: model.AlertsNrqlBaselineDirection(c.BaselineDirection),
			Description:       nonEmpty(c.Description), RunbookURL: nonEmpty(c.RunbookURL), TitleTemplate: nonEmpty(c.TitleTemplate),
			Nrql: nrqlModel(c.Nrql), Signal: signalModel(c.Signal), Expiration: expirationModel(c.Expiration), Terms: terms,
			ViolationTimeLimitSeconds: violationLimit(c), CreatedAt: millis(c.CreatedAt), UpdatedAt: millis(c.UpdatedAt),
		}
		if c.SignalSeasonality != "" {
			out.SignalSeasonality = ptr(model.AlertsNrqlSignalSeasonality(c.SignalSeasonality))
		}
		return out
	}
	return &model.AlertsAsNrqlStaticCondition{
		ID: strconv.Itoa(c.ID), PolicyID: strconv.Itoa(c.PolicyID), Name: c.Name, Enabled: c.Enabled,
		Type: model.AlertsNrqlConditionTypeStatic, SourceProduct: product, EntityGUID: conditionGUID(accountID, c.ID),
		Description: nonEmpty(c.Description), RunbookURL: nonEmpty(c.RunbookURL), TitleTemplate: nonEmpty(c.TitleTemplate),
		Nrql: nrqlModel(c.Nrql), Signal: signalModel(c.Signal), Expiration: expirationModel(c.Expiration), Terms: terms,
		ViolationTimeLimitSeconds: violationLimit(c), CreatedAt: millis(c.CreatedAt), UpdatedAt: millis(c.UpdatedAt),
	}
}

// ---------------------------------------------------------------------------------
// Mutations

// conditionInput is what a create or update input sets, whatever its GraphQL type: nil
// fields are left alone.
type conditionInput struct {
	name, description, runbookURL, titleTemplate, targetEntity *string
	enabled                                                    *bool
	query                                                      *string
	dataAccountID, evaluationOffset                            *int
	signal                                                     *model.AlertsNrqlConditionSignalInput
	expiration                                                 *model.AlertsNrqlConditionExpirationInput
	violationTimeLimit                                         *model.AlertsViolationTimeLimit
	violationTimeLimitSeconds                                  *float64
	terms                                                      []NrqlTerm // nil: unchanged
	baselineDirection, signalSeasonality                       *string
}

// violationTimeLimits are the seconds of the deprecated violationTimeLimit values.
func violationTimeLimits() map[model.AlertsViolationTimeLimit]float64 {
	return map[model.AlertsViolationTimeLimit]float64{
		model.AlertsViolationTimeLimitOneHour: 3600, model.AlertsViolationTimeLimitTwoHours: 7200,
		model.AlertsViolationTimeLimitFourHours: 14400, model.AlertsViolationTimeLimitEightHours: 28800,
		model.AlertsViolationTimeLimitTwelveHours: 43200, model.AlertsViolationTimeLimitTwentyFourHours: 86400,
		model.AlertsViolationTimeLimitThirtyDays: 2592000,
	}
}

// apply writes the input into c; the result is checked by conditionProblems.
func (in conditionInput) apply(c *NrqlCondition) error {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&c.Name, in.name)
	set(&c.Description, in.description)
	set(&c.RunbookURL, in.runbookURL)
	set(&c.TitleTemplate, in.titleTemplate)
	set(&c.TargetEntity, in.targetEntity)
	set(&c.Nrql.Query, in.query)
	set(&c.BaselineDirection, in.baselineDirection)
	set(&c.SignalSeasonality, in.signalSeasonality)
	if in.enabled != nil {
		c.Enabled = *in.enabled
	}
	if in.dataAccountID != nil {
		c.Nrql.DataAccountID = *in.dataAccountID
	}
	if in.evaluationOffset != nil {
		c.Nrql.EvaluationOffset = *in.evaluationOffset
	}
	switch {
	case in.violationTimeLimit != nil && in.violationTimeLimitSeconds != nil:
		return gqlError(classInvalidInput, "Validation error: give violationTimeLimitSeconds or the deprecated violationTimeLimit, not both")
	case in.violationTimeLimitSeconds != nil:
		c.ViolationTimeLimitSeconds = *in.violationTimeLimitSeconds
	case in.violationTimeLimit != nil:
		secs, ok := violationTimeLimits()[*in.violationTimeLimit]
		if !ok {
			return gqlError(classInvalidInput, "Validation error: violationTimeLimit %s is not a time limit", *in.violationTimeLimit)
		}
		c.ViolationTimeLimitSeconds = secs
	}
	if in.terms != nil {
		c.Terms = in.terms
	}
	if s := in.signal; s != nil {
		sig := &c.Signal
		if s.AggregationMethod != nil {
			sig.AggregationMethod = string(*s.AggregationMethod)
			// A method change drops the setting only the other methods have.
			if *s.AggregationMethod == model.AlertsSignalAggregationMethodEventTimer {
				sig.AggregationDelay = nil
			} else {
				sig.AggregationTimer = nil
			}
		}
		for _, f := range []struct {
			dst **float64
			src *float64
		}{
			{&sig.AggregationWindow, s.AggregationWindow}, {&sig.AggregationDelay, s.AggregationDelay},
			{&sig.AggregationTimer, s.AggregationTimer}, {&sig.EvaluationDelay, s.EvaluationDelay},
			{&sig.PollingFrequency, s.PollingFrequency}, {&sig.SlideBy, s.SlideBy}, {&sig.FillValue, s.FillValue},
		} {
			if f.src != nil {
				*f.dst = ptr(*f.src)
			}
		}
		if s.FillOption != nil {
			sig.FillOption = string(*s.FillOption)
			if *s.FillOption != model.AlertsFillOptionStatic && s.FillValue == nil {
				sig.FillValue = nil
			}
		}
		if s.EvaluationOffset != nil {
			c.Nrql.EvaluationOffset = *s.EvaluationOffset
		}
	}
	if err := applyEvaluationOffset(c, in); err != nil {
		return err
	}
	if e := in.expiration; e != nil {
		if e.ExpirationDuration != nil {
			c.Expiration.ExpirationDuration = ptr(*e.ExpirationDuration)
		}
		for _, f := range []struct {
			dst *bool
			src *bool
		}{
			{&c.Expiration.OpenViolationOnExpiration, e.OpenViolationOnExpiration},
			{&c.Expiration.CloseViolationsOnExpiration, e.CloseViolationsOnExpiration},
			{&c.Expiration.IgnoreOnExpectedTermination, e.IgnoreOnExpectedTermination},
		} {
			if f.src != nil {
				*f.dst = *f.src
			}
		}
	}
	return nil
}

func fromStaticTerms(in []*model.AlertsNrqlConditionTermsInput) []NrqlTerm {
	if in == nil {
		return nil
	}
	out := []NrqlTerm{}
	for _, t := range in {
		if t == nil {
			continue
		}
		nt := NrqlTerm{Priority: string(t.Priority), Operator: string(t.Operator), Threshold: t.Threshold,
			ThresholdDuration: t.ThresholdDuration, ThresholdOccurrences: string(t.ThresholdOccurrences),
			DisableHealthStatusReporting: t.DisableHealthStatusReporting != nil && *t.DisableHealthStatusReporting}
		if p := t.Prediction; p != nil {
			nt.Prediction = &NrqlPrediction{PredictBy: defaultPredictBy}
			if p.PredictBy != nil {
				nt.Prediction.PredictBy = *p.PredictBy
			}
			nt.Prediction.PreferPredictionViolation = p.PreferPredictionViolation != nil && *p.PreferPredictionViolation
		}
		out = append(out, nt)
	}
	return out
}

func fromDynamicTerms(in []*model.AlertsNrqlDynamicConditionTermsInput) []NrqlTerm {
	if in == nil {
		return nil
	}
	out := []NrqlTerm{}
	for _, t := range in {
		if t == nil {
			continue
		}
		out = append(out, NrqlTerm{Priority: string(t.Priority), Operator: string(t.Operator), Threshold: t.Threshold,
			ThresholdDuration: t.ThresholdDuration, ThresholdOccurrences: string(t.ThresholdOccurrences),
			DisableHealthStatusReporting: t.DisableHealthStatusReporting != nil && *t.DisableHealthStatusReporting})
	}
	return out
}

func enumString[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	return ptr(string(*v))
}

// checkCondition rejects a condition NerdGraph would not store, and a data account the
// key may not read.
func checkCondition(ctx context.Context, c NrqlCondition) error {
	if problems := conditionProblems(c); len(problems) > 0 {
		return gqlError(classInvalidInput, "Validation error: %s", strings.Join(problems, "; "))
	}
	if d := c.Nrql.DataAccountID; d != 0 && !requestFrom(ctx).caller.reach[d] {
		return gqlError(classForbidden, "Access denied to account %d (nrql.dataAccountId)", d)
	}
	return nil
}

// nextConditionID is a new condition id: above every id in d and every id handed out
// before (callers hold wmu, inside mutate).
func (s *Server) nextConditionID(d *Data) int {
	id := s.lastConditionID
	for _, a := range d.Accounts {
		for _, c := range a.NrqlConditions {
			id = max(id, c.ID)
		}
		for _, c := range a.LegacyConditions {
			id = max(id, c.ID)
		}
	}
	s.lastConditionID = id + 1
	return id + 1
}

// createCondition adds c to a policy of the account and returns what was stored.
func (r mutationResolver) createCondition(ctx context.Context, accountID int, policyID string, c NrqlCondition, in conditionInput) (NrqlCondition, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return NrqlCondition{}, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	if err := in.apply(&c); err != nil {
		return NrqlCondition{}, err
	}
	if err := checkCondition(ctx, c); err != nil {
		return NrqlCondition{}, err
	}
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		found := false
		for _, p := range a.AlertPolicies {
			if strconv.Itoa(p.ID) == policyID {
				c.PolicyID, found = p.ID, true
			}
		}
		if !found {
			return gqlError(classNotFound, "Not Found: no policy with id %s in account %d", policyID, accountID)
		}
		c.ID = r.s.nextConditionID(d)
		c.CreatedAt = r.s.now().UTC().Truncate(time.Millisecond)
		c.UpdatedAt = c.CreatedAt
		a.NrqlConditions = append(a.NrqlConditions, c)
		return nil
	})
	return c, err
}

// updateCondition changes the given fields of an NRQL condition of type typ (the other
// type's mutation is refused) and returns what was stored.
func (r mutationResolver) updateCondition(ctx context.Context, accountID int, id, typ string, in conditionInput) (NrqlCondition, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return NrqlCondition{}, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	var out NrqlCondition
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		for i := range a.NrqlConditions {
			c := a.NrqlConditions[i]
			if strconv.Itoa(c.ID) != id {
				continue
			}
			if c.Type != typ {
				return gqlError(classInvalidInput, "Validation error: condition %s is a %s condition and cannot be updated as a %s condition",
					id, strings.ToLower(c.Type), strings.ToLower(typ))
			}
			if err := in.apply(&c); err != nil {
				return err
			}
			if err := checkCondition(ctx, c); err != nil {
				return err
			}
			c.UpdatedAt = r.s.now().UTC().Truncate(time.Millisecond)
			a.NrqlConditions[i] = c
			out = c
			return nil
		}
		return conditionNotFound(id)
	})
	return out, err
}

func staticInput(in model.AlertsNrqlConditionStaticInput) conditionInput {
	ci := conditionInput{name: &in.Name, enabled: &in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromStaticTerms(in.Terms)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = &q.Query, q.DataAccountID, q.EvaluationOffset
	}
	return ci
}

func baselineInput(in model.AlertsNrqlConditionBaselineInput) conditionInput {
	ci := conditionInput{name: &in.Name, enabled: &in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromDynamicTerms(in.Terms), baselineDirection: enumString(&in.BaselineDirection),
		signalSeasonality: enumString(in.SignalSeasonality)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = &q.Query, q.DataAccountID, q.EvaluationOffset
	}
	return ci
}

// AlertsNrqlConditionStaticCreate adds a static NRQL condition to a policy. The policy
// must be the account's (else NOT_FOUND); name, nrql.query and at least one term are
// required, with at most one CRITICAL and one WARNING term (else INVALID_INPUT).
func (r mutationResolver) AlertsNrqlConditionStaticCreate(ctx context.Context, accountID int, in model.AlertsNrqlConditionStaticInput, policyID string) (*model.AlertsNrqlStaticCondition, error) {
	c, err := r.createCondition(ctx, accountID, policyID, NrqlCondition{Type: condStatic}, staticInput(in))
	if err != nil {
		return nil, err
	}
	return staticModel(accountID, c), nil
}

// AlertsNrqlConditionBaselineCreate adds a baseline NRQL condition to a policy (rules
// as for static conditions; terms use the ABOVE operator only).
func (r mutationResolver) AlertsNrqlConditionBaselineCreate(ctx context.Context, accountID int, in model.AlertsNrqlConditionBaselineInput, policyID string) (*model.AlertsNrqlBaselineCondition, error) {
	c, err := r.createCondition(ctx, accountID, policyID, NrqlCondition{Type: condBaseline}, baselineInput(in))
	if err != nil {
		return nil, err
	}
	return baselineModel(accountID, c), nil
}

// AlertsNrqlConditionStaticUpdate changes the given fields of a static condition; terms,
// when given, replace all terms. A baseline condition is refused (INVALID_INPUT), an
// unknown id is NOT_FOUND.
func (r mutationResolver) AlertsNrqlConditionStaticUpdate(ctx context.Context, accountID int, in model.AlertsNrqlConditionUpdateStaticInput, id string) (*model.AlertsNrqlStaticCondition, error) {
	ci := conditionInput{name: in.Name, enabled: in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromStaticTerms(in.Terms)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = q.Query, q.DataAccountID, q.EvaluationOffset
	}
	c, err := r.updateCondition(ctx, accountID, id, condStatic, ci)
	if err != nil {
		return nil, err
	}
	return staticModel(accountID, c), nil
}

// AlertsNrqlConditionBaselineUpdate changes the given fields of a baseline condition; a
// static condition is refused (INVALID_INPUT), an unknown id is NOT_FOUND.
func (r mutationResolver) AlertsNrqlConditionBaselineUpdate(ctx context.Context, accountID int, in model.AlertsNrqlConditionUpdateBaselineInput, id string) (*model.AlertsNrqlBaselineCondition, error) {
	ci := conditionInput{name: in.Name, enabled: in.Enabled, description: in.Description, runbookURL: in.RunbookURL,
		titleTemplate: in.TitleTemplate, targetEntity: in.TargetEntity, signal: in.Signal, expiration: in.Expiration,
		violationTimeLimit: in.ViolationTimeLimit, violationTimeLimitSeconds: in.ViolationTimeLimitSeconds,
		terms: fromDynamicTerms(in.Terms), baselineDirection: enumString(in.BaselineDirection),
		signalSeasonality: enumString(in.SignalSeasonality)}
	if q := in.Nrql; q != nil {
		ci.query, ci.dataAccountID, ci.evaluationOffset = q.Query, q.DataAccountID, q.EvaluationOffset
	}
	c, err := r.updateCondition(ctx, accountID, id, condBaseline, ci)
	if err != nil {
		return nil, err
	}
	return baselineModel(accountID, c), nil
}

// AlertsConditionDelete deletes a condition of any kind (NRQL or legacy) of the account
// and answers its id; an unknown id is NOT_FOUND.
func (r mutationResolver) AlertsConditionDelete(ctx context.Context, accountID int, id string) (*model.AlertsConditionDeleteResponse, error) {
	if !requestFrom(ctx).caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	err := r.s.mutate(func(d *Data) error {
		a := accountOf(d, accountID)
		if a == nil {
			return gqlError(classForbidden, "Access denied to account %d", accountID)
		}
		for i, c := range a.NrqlConditions {
			if strconv.Itoa(c.ID) == id {
				a.NrqlConditions = slices.Delete(a.NrqlConditions, i, i+1)
				return nil
			}
		}
		for i, c := range a.LegacyConditions {
			if strconv.Itoa(c.ID) == id {
				a.LegacyConditions = slices.Delete(a.LegacyConditions, i, i+1)
				return nil
			}
		}
		return gqlError(classNotFound, "Not Found: no condition with id %s in the account", id)
	})
	if err != nil {
		return nil, err
	}
	return &model.AlertsConditionDeleteResponse{ID: id}, nil
}

// dropPolicyConditions removes the conditions of a deleted policy.
func dropPolicyConditions(a *Account, policyID int) {
	a.NrqlConditions = slices.DeleteFunc(a.NrqlConditions, func(c NrqlCondition) bool { return c.PolicyID == policyID })
	a.LegacyConditions = slices.DeleteFunc(a.LegacyConditions, func(c LegacyCondition) bool { return c.PolicyID == policyID })
}

// applyEvaluationOffset converts the deprecated evaluationOffset (in nrql or signal): a
// count of aggregation windows (1–20) that NerdGraph turns into the CADENCE method
// with that many windows of aggregation delay; it cannot be combined with the
// aggregation settings that replaced it.
func applyEvaluationOffset(c *NrqlCondition, in conditionInput) error {
	off := in.evaluationOffset
	if s := in.signal; s != nil && s.EvaluationOffset != nil {
		off = s.EvaluationOffset
	}
	if off == nil {
		return nil
	}
	if *off < 1 || *off > 20 {
		return gqlError(classInvalidInput, "Validation error: evaluationOffset must be between 1 and 20 windows")
	}
	if s := in.signal; s != nil && (s.AggregationMethod != nil || s.AggregationDelay != nil || s.AggregationTimer != nil) {
		return gqlError(classInvalidInput, "Validation error: evaluationOffset cannot be combined with aggregationMethod, aggregationDelay or aggregationTimer")
	}
	window := float64(defaultAggregationWindow)
	if c.Signal.AggregationWindow != nil {
		window = *c.Signal.AggregationWindow
	}
	c.Signal.AggregationMethod = string(model.AlertsSignalAggregationMethodCadence)
	c.Signal.AggregationDelay = ptr(float64(*off) * window)
	c.Signal.AggregationTimer = nil
	return nil
}
