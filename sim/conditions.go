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

	"github.com/v2bridge/v2bridge/sim/internal/bind"
	"github.com/v2bridge/v2bridge/sim/model"
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
