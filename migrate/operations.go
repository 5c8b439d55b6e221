package migrate

import (
	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
)

// operations maps route names to the genqlient operations that replace them.
func operations() map[string][]string {
	out := map[string][]string{}
	for _, r := range gateway.Routes() {
		out[r.Name] = r.Operations
	}
	return out
}

// operationText is the GraphQL text of a genqlient operation.
func operationText(name string) string {
	switch name {
	case "AppList":
		return ng.AppList_Operation
	case "AppNamePage":
		return ng.AppNamePage_Operation
	case "AppCursor":
		return ng.AppCursor_Operation
	case "AppSearchPage":
		return ng.AppSearchPage_Operation
	case "BrowserPage":
		return ng.BrowserPage_Operation
	case "AppInventory":
		return ng.AppInventory_Operation
	case "AppInventoryNext":
		return ng.AppInventoryNext_Operation
	case "AppShow":
		return ng.AppShow_Operation
	case "AppHosts":
		return ng.AppHosts_Operation
	case "MetricNames":
		return ng.MetricNames_Operation
	case "MetricData":
		return ng.MetricData_Operation
	case "Deployments":
		return ng.Deployments_Operation
	case "DeploymentCreateEvent":
		return ng.DeploymentCreateEvent_Operation
	case "BrowserSearch":
		return ng.BrowserSearch_Operation
	case "BrowserDetails":
		return ng.BrowserDetails_Operation
	case "BrowserCreate":
		return ng.BrowserCreate_Operation
	case "MobileSearch":
		return ng.MobileSearch_Operation
	case "MobileShow":
		return ng.MobileShow_Operation
	case "MobileCreate":
		return ng.MobileCreate_Operation
	case "Policies":
		return ng.Policies_Operation
	case "Policy":
		return ng.Policy_Operation
	case "PolicyCreate":
		return ng.PolicyCreate_Operation
	case "PolicyUpdate":
		return ng.PolicyUpdate_Operation
	case "PolicyDelete":
		return ng.PolicyDelete_Operation
	case "Incidents":
		return ng.Incidents_Operation
	case "IssueAck":
		return ng.IssueAck_Operation
	case "IssueResolve":
		return ng.IssueResolve_Operation
	case "NrqlQuery":
		return ng.NrqlQuery_Operation
	case "NrqlConditions":
		return ng.NrqlConditions_Operation
	case "NrqlCondition":
		return ng.NrqlCondition_Operation
	case "AsNrqlConditions":
		return ng.AsNrqlConditions_Operation
	case "NrqlConditionStaticCreate":
		return ng.NrqlConditionStaticCreate_Operation
	case "NrqlConditionBaselineCreate":
		return ng.NrqlConditionBaselineCreate_Operation
	case "NrqlConditionStaticUpdate":
		return ng.NrqlConditionStaticUpdate_Operation
	case "NrqlConditionBaselineUpdate":
		return ng.NrqlConditionBaselineUpdate_Operation
	case "ConditionDelete":
		return ng.ConditionDelete_Operation
	case "KeyTransactionSearch":
		return ng.KeyTransactionSearch_Operation
	case "KeyTransactionDetails":
		return ng.KeyTransactionDetails_Operation
	case "KeyTransactionShow":
		return ng.KeyTransactionShow_Operation
	case "AppUpdate":
		return ng.AppUpdate_Operation
	case "AppDelete":
		return ng.AppDelete_Operation
	}
	return ""
}
