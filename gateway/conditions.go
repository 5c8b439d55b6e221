package gateway

import (
	"context"
	"strconv"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// policyPage reads the policy_id and page of a condition list.
func policyPage(rq *request) (int64, int, error) {
	pid, err := rq.params.PolicyID()
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
	in, err := restv2.DecodeNrqlCondition(rq.body, "create")
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
	in, err := restv2.DecodeNrqlCondition(rq.body, "update")
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
