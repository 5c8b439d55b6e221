package translate

import (
	"context"
	"fmt"
	"strconv"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/nrqlwhere"
)

// legacySources is, for every AlertsAsNrqlSourceProduct (the only field of an
// AlertsAsNrqlCondition that says where a condition came from: NerdGraph's schema gives
// it no metric, entity list or REST type), the REST v2 `type` GET /v2/alerts_conditions reports, or "" for
// products whose conditions that route never listed. REST's types are apm_app_metric,
// apm_kt_metric, apm_jvm_metric, browser_metric, mobile_metric and servers_metric
// (https://docs.newrelic.com/docs/alerts/rest-api-alerts/new-relic-alerts-rest-api/alerts-conditions-api-field-names#type).
// APM covers three of them, and nothing NerdGraph returns tells them apart: no
// published asNrqlConditionsSearch answer shows how a key-transaction or JVM condition
// is rendered (tests/contracts/README.md), so the NRQL text is no evidence either. APM
// conditions are reported as apm_app_metric, the common case, and the route's fidelity
// note says so.
var legacySources = []struct {
	product  ng.AlertsAsNrqlSourceProduct
	restType string
	why      string
}{
	{ng.AlertsAsNrqlSourceProductApm, "apm_app_metric", "APM metric conditions; apm_kt_metric and apm_jvm_metric are indistinguishable"},
	{ng.AlertsAsNrqlSourceProductBrowser, "browser_metric", "browser metric conditions"},
	{ng.AlertsAsNrqlSourceProductMobile, "mobile_metric", "mobile metric conditions"},
	{ng.AlertsAsNrqlSourceProductServers, "servers_metric", "legacy Servers conditions"},
	{ng.AlertsAsNrqlSourceProductNrql, "", "REST listed NRQL conditions at /v2/alerts_nrql_conditions"},
	{ng.AlertsAsNrqlSourceProductInfrastructure, "", "REST v2 never had infrastructure conditions (Infrastructure alerts API)"},
	{ng.AlertsAsNrqlSourceProductSynthetics, "", "REST listed them at /v2/alerts_synthetics_conditions"},
}

// legacyType is REST's condition type of a source product ("" when the product's
// conditions are not REST v2 /alerts_conditions conditions).
func legacyType(p ng.AlertsAsNrqlSourceProduct) string {
	for _, s := range legacySources {
		if s.product == p {
			return s.restType
		}
	}
	return ""
}

// legacyProducts are the source products GET /v2/alerts_conditions lists.
func legacyProducts() []ng.AlertsAsNrqlSourceProduct {
	var out []ng.AlertsAsNrqlSourceProduct
	for _, s := range legacySources {
		if s.restType != "" {
			out = append(out, s.product)
		}
	}
	return out
}

// ListConditions answers GET /v2/alerts_conditions?policy_id= from the NRQL form of
// the policy's APM, browser, mobile and servers conditions (lossy: the NRQL form keeps
// no metric or entity list).
func (t *Translator) ListConditions(ctx context.Context, c Caller, policyID int64, page int) (*restv2.ConditionList, Paging, error) {
	page = max(page, 1)
	pid := policyIDParam(policyID)
	crit := ng.AlertsAsNrqlConditionsSearchCriteriaInput{PolicyId: &pid, SourceProduct: legacyProducts()}
	var all []restv2.Condition
	var cursor *string
	for {
		resp, err := ng.AsNrqlConditions(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("alert conditions: %w", err)
		}
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.AsNrqlConditionsSearch == nil {
			break
		}
		s := a.Account.Alerts.AsNrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f == nil || f.GetPolicyId() != pid {
				continue
			}
			typ := legacyType(f.GetSourceProduct())
			if typ == "" {
				continue
			}
			id, _ := strconv.ParseInt(f.GetId(), 10, 64)
			q := f.GetNrql()
			cond := restv2.Condition{ID: id, Type: typ, Name: f.GetName(), Enabled: f.GetEnabled(), RunbookURL: deref(f.GetRunbookUrl()),
				Entities: appIDsNamed(q.Query)}
			for _, tm := range f.GetTerms() {
				if tm != nil {
					cond.Terms = append(cond.Terms, restTerm(tm.GetOperator(), tm.GetPriority(), tm.GetThreshold(), tm.GetThresholdDuration(),
						tm.GetThresholdOccurrences()))
				}
			}
			if l := f.GetViolationTimeLimitSeconds(); l != nil && *l >= 3600 {
				cond.ViolationCloseTimer = int64(*l / 3600)
			}
			all = append(all, cond)
		}
		if cursor = s.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &restv2.ConditionList{Conditions: items}, paging, nil
}

// ListSyntheticsConditions answers GET /v2/alerts_synthetics_conditions?policy_id= from
// the NRQL form of the policy's synthetics conditions (asNrqlConditionsSearch with
// sourceProduct SYNTHETICS, the only NerdGraph path to them): id, name, runbook_url
// and enabled; monitor_id has no field there and is omitted.
func (t *Translator) ListSyntheticsConditions(ctx context.Context, c Caller, policyID int64, page int) (*restv2.SyntheticsConditionList, Paging, error) {
	page = max(page, 1)
	pid := policyIDParam(policyID)
	crit := ng.AlertsAsNrqlConditionsSearchCriteriaInput{PolicyId: &pid,
		SourceProduct: []ng.AlertsAsNrqlSourceProduct{ng.AlertsAsNrqlSourceProductSynthetics}}
	all := []restv2.SyntheticsCondition{}
	var cursor *string
	for {
		resp, err := ng.AsNrqlConditions(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return nil, Paging{}, fmt.Errorf("synthetics conditions: %w", err)
		}
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.AsNrqlConditionsSearch == nil {
			break
		}
		s := a.Account.Alerts.AsNrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f == nil || f.GetPolicyId() != pid || f.GetSourceProduct() != ng.AlertsAsNrqlSourceProductSynthetics {
				continue
			}
			id, _ := strconv.ParseInt(f.GetId(), 10, 64)
			all = append(all, restv2.SyntheticsCondition{ID: id, Name: f.GetName(), Enabled: f.GetEnabled(), RunbookURL: deref(f.GetRunbookUrl())})
		}
		if cursor = s.NextCursor; cursor == nil {
			break
		}
	}
	items, paging := pageOf(all, page, PageSize)
	return &restv2.SyntheticsConditionList{Conditions: items}, paging, nil
}

// appIDsNamed are the application ids a condition's NRQL names by appId (an IN list or
// an equality in its WHERE clause), nil when it names none that way or does not parse.
func appIDsNamed(query string) []string {
	p, err := nrqlwhere.New()
	if err != nil || query == "" {
		return nil
	}
	return p.AppIDs(query)
}
