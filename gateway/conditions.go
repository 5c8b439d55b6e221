package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// text is a JSON value REST sent as a string but callers also send as a number
// ("5" or 5, "0.9" or 0.9); either way the translator gets the text.
type text struct{ s *string }

func (t *text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("want a string or a number, got %.40s", b)
		}
		s = n.String()
	}
	t.s = &s
	return nil
}

type termBody struct {
	Duration     text `json:"duration"`
	Operator     text `json:"operator"`
	Priority     text `json:"priority"`
	Threshold    text `json:"threshold"`
	TimeFunction text `json:"time_function"`
}

type nrqlConditionBody struct {
	NrqlCondition *struct {
		Type                      text        `json:"type"`
		Name                      *string     `json:"name"`
		Enabled                   *bool       `json:"enabled"`
		RunbookURL                *string     `json:"runbook_url"`
		ValueFunction             text        `json:"value_function"`
		BaselineDirection         text        `json:"baseline_direction"`
		ViolationTimeLimitSeconds text        `json:"violation_time_limit_seconds"`
		Terms                     *[]termBody `json:"terms"`
		Nrql                      *struct {
			Query      *string `json:"query"`
			SinceValue text    `json:"since_value"`
		} `json:"nrql"`
		Signal *struct {
			AggregationWindow text `json:"aggregation_window"`
			SlideBy           text `json:"slide_by"`
			AggregationMethod text `json:"aggregation_method"`
			AggregationDelay  text `json:"aggregation_delay"`
			AggregationTimer  text `json:"aggregation_timer"`
			EvaluationOffset  text `json:"evaluation_offset"`
			FillOption        text `json:"fill_option"`
			FillValue         text `json:"fill_value"`
		} `json:"signal"`
		Expiration *struct {
			ExpirationDuration          text  `json:"expiration_duration"`
			OpenViolationOnExpiration   *bool `json:"open_violation_on_expiration"`
			CloseViolationsOnExpiration *bool `json:"close_violations_on_expiration"`
		} `json:"expiration"`
	} `json:"nrql_condition"`
}

// parseNrqlCondition reads a REST {"nrql_condition":{...}} body.
func parseNrqlCondition(body []byte, op string) (translate.NrqlConditionInput, error) {
	var b nrqlConditionBody
	if err := restv2.DecodeJSON(bytes.TrimSpace(body), &b); err != nil {
		return translate.NrqlConditionInput{}, jsonBodyError(body, err, "Validation error occurred while trying to "+op+" the alert condition")
	}
	c := b.NrqlCondition
	if c == nil {
		return translate.NrqlConditionInput{}, restv2.Unprocessable("Validation error occurred while trying to "+op+" the alert condition", `the body needs a "nrql_condition" object`)
	}
	in := translate.NrqlConditionInput{Type: c.Type.s, Name: c.Name, Enabled: c.Enabled, RunbookURL: c.RunbookURL,
		ValueFunction: c.ValueFunction.s, BaselineDirection: c.BaselineDirection.s, ViolationTimeLimitSeconds: c.ViolationTimeLimitSeconds.s}
	if c.Terms != nil {
		in.Terms = make([]translate.TermInput, 0, len(*c.Terms))
		for _, t := range *c.Terms {
			in.Terms = append(in.Terms, translate.TermInput{Duration: t.Duration.s, Operator: t.Operator.s, Priority: t.Priority.s,
				Threshold: t.Threshold.s, TimeFunction: t.TimeFunction.s})
		}
	}
	if c.Nrql != nil {
		in.Query, in.SinceValue = c.Nrql.Query, c.Nrql.SinceValue.s
	}
	if s := c.Signal; s != nil {
		in.Signal = &translate.SignalInput{AggregationWindow: s.AggregationWindow.s, SlideBy: s.SlideBy.s,
			AggregationMethod: s.AggregationMethod.s, AggregationDelay: s.AggregationDelay.s, AggregationTimer: s.AggregationTimer.s,
			EvaluationOffset: s.EvaluationOffset.s, FillOption: s.FillOption.s, FillValue: s.FillValue.s}
	}
	if x := c.Expiration; x != nil {
		in.Expiration = &translate.ExpirationInput{ExpirationDuration: x.ExpirationDuration.s,
			OpenViolationOnExpiration: x.OpenViolationOnExpiration, CloseViolationsOnExpiration: x.CloseViolationsOnExpiration}
	}
	return in, nil
}

// policyIDParam is the required policy_id of the condition lists.
func policyIDParam(rq *request) (int64, error) {
	v, ok := rq.params.Get("policy_id")
	if !ok || v == "" {
		return 0, restv2.BadRequest("Missing parameter: policy_id")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, restv2.BadRequest("Invalid parameter 'policy_id': " + strconv.Quote(v) + " is not a policy id")
	}
	return id, nil
}

// policyPage reads the policy_id and page of a condition list.
func policyPage(rq *request) (int64, int, error) {
	pid, err := policyIDParam(rq)
	if err != nil {
		return 0, 0, err
	}
	page, err := rq.params.Page()
	return pid, page, err
}

// handleNrqlConditionList serves GET /v2/alerts_nrql_conditions.
func handleNrqlConditionList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	pid, page, err := policyPage(rq)
	if err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListNrqlConditions(ctx, rq.caller, pid, page)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleConditionList serves GET /v2/alerts_conditions.
func handleConditionList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	pid, page, err := policyPage(rq)
	if err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListConditions(ctx, rq.caller, pid, page)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleNrqlConditionCreate serves POST /v2/alerts_nrql_conditions/policies/{policy_id}.
func handleNrqlConditionCreate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	pid, err := pathID(rq, "policy_id", "No Alerts policy was found for the given ID")
	if err != nil {
		return nil, err
	}
	in, err := parseNrqlCondition(rq.body, "create")
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.CreateNrqlCondition(ctx, rq.caller, pid, in)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, status: restv2.StatusCreated}, nil
}

// handleNrqlConditionUpdate serves PUT /v2/alerts_nrql_conditions/{id}.
func handleNrqlConditionUpdate(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", "No Alerts condition was found with the given ID")
	if err != nil {
		return nil, err
	}
	in, err := parseNrqlCondition(rq.body, "update")
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.UpdateNrqlCondition(ctx, rq.caller, id, in)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}

// handleNrqlConditionDelete serves DELETE /v2/alerts_nrql_conditions/{id}.
func handleNrqlConditionDelete(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", "No Alerts condition was found with the given ID")
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.DeleteNrqlCondition(ctx, rq.caller, id)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}

// entityRef reads the entity of an entity-condition call: the path's entity_id and the
// required entity_type.
func entityRef(rq *request) (translate.EntityRef, error) {
	id, err := pathID(rq, "entity_id", "No entity was found for the given ID")
	if err != nil {
		return translate.EntityRef{}, err
	}
	typ, ok := rq.params.Get("entity_type")
	if !ok || typ == "" {
		return translate.EntityRef{}, restv2.BadRequest("Missing parameter: entity_type")
	}
	if err := translate.CheckEntityType(typ); err != nil {
		return translate.EntityRef{}, err
	}
	return translate.EntityRef{Type: typ, ID: id}, nil
}

// handleEntityConditionList serves GET /v2/alerts_entity_conditions/{entity_id}.
func handleEntityConditionList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	ref, err := entityRef(rq)
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.ListEntityConditions(ctx, rq.caller, ref)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}

// handleEntityConditionEdit is PUT (add) or DELETE (remove) with the required
// condition_id.
func handleEntityConditionEdit(add bool) func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	return func(ctx context.Context, g *Gateway, rq *request) (*result, error) {
		ref, err := entityRef(rq)
		if err != nil {
			return nil, err
		}
		v, ok := rq.params.Get("condition_id")
		if !ok || v == "" {
			return nil, restv2.BadRequest("Missing parameter: condition_id")
		}
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return nil, restv2.BadRequest("Invalid parameter 'condition_id': " + strconv.Quote(v) + " is not a condition id")
		}
		var doc restv2.Document
		if add {
			doc, err = g.tr.AddEntityCondition(ctx, rq.caller, ref, id)
		} else {
			doc, err = g.tr.RemoveEntityCondition(ctx, rq.caller, ref, id)
		}
		if err != nil {
			return nil, err
		}
		return &result{doc: doc}, nil
	}
}

// handleSyntheticsConditionList serves GET /v2/alerts_synthetics_conditions.
func handleSyntheticsConditionList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	pid, page, err := policyPage(rq)
	if err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListSyntheticsConditions(ctx, rq.caller, pid, page)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}
