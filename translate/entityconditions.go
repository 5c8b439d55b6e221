package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/nrqlwhere"
)

// Entity conditions (REST /v2/alerts_entity_conditions/{entity_id},
// https://docs.newrelic.com/docs/alerts/scale-automate/rest-api/manage-entities-alerts-conditions/)
// have no NerdGraph field: REST attached entities to legacy metric conditions, and
// NerdGraph has no mutation that attaches or detaches one. The
// translation serves the NRQL form of the idea: an NRQL condition names its entities
// in its WHERE clause (`appId IN (...)`, `appName IN (...)`, `entity.guid IN (...)`),
// so GET lists the conditions whose list names the entity, PUT adds the entity to the
// list and DELETE removes it, by rewriting the query with the NRQL condition update
// mutation. A condition without such a list is refused with 409: adding a WHERE term
// would change what the condition means.

// EntityRef is the entity of an entity-condition call.
type EntityRef struct {
	// Type is REST's entity_type (Application, BrowserApplication, MobileApplication).
	Type string
	ID   int64
}

// entityDomains are the entity types whose NRQL lists the translation can read and
// edit, with their GUID domain.
var entityDomains = map[string]string{"Application": DomainAPM, "BrowserApplication": DomainBrowser, "MobileApplication": DomainMobile}

// ErrBadEntityType is REST's answer to an entity_type it does not know: 406 "Bad
// entity type".
func ErrBadEntityType() *restv2.Error { return restv2.NotAcceptable("Bad entity type") }

// CheckEntityType refuses entity types REST did not know (406) and those whose
// conditions the translation cannot edit (501 naming the replacement).
func CheckEntityType(typ string) error {
	if _, ok := entityDomains[typ]; ok {
		return nil
	}
	switch typ {
	case "KeyTransaction", "Server", "Plugin":
		return restv2.NotImplemented("Entity conditions of a " + typ + " are not translated: name the entity's GUID in an NRQL " +
			"condition's WHERE clause (`entity.guid IN (...)`, NerdGraph alertsNrqlConditionStaticUpdate), or route " +
			"alerts_entity_conditions to the REST API (retained_alerts: passthrough)")
	}
	return ErrBadEntityType()
}

// errNoEntityList is the 409 for a condition whose WHERE clause lists no entities.
func errNoEntityList(id int64, why string) *restv2.Error {
	return restv2.Conflict("Alert condition " + strconv.FormatInt(id, 10) + " names no entity list: " + why +
		"; edit its NRQL query instead (PUT /v2/alerts_nrql_conditions/" + strconv.FormatInt(id, 10) + ")")
}

// entityKeys are the values that name an entity in each list attribute; name is looked
// up only when a list needs it.
type entityKeys struct {
	t     *Translator
	c     Caller
	ref   EntityRef
	name  *string
	nameE error
}

func (k *entityKeys) value(ctx context.Context, attr string) (string, error) {
	switch attr {
	case "appId":
		return strconv.FormatInt(k.ref.ID, 10), nil
	case "entity.guid":
		return AppGUID(k.c.AccountID, entityDomains[k.ref.Type], k.ref.ID), nil
	}
	// appName: the application's name (APM applications only; other types' names are
	// not looked up, so their appName lists never match).
	if k.ref.Type != "Application" {
		return "", nil
	}
	if k.name == nil && k.nameE == nil {
		a, err := k.t.application(ctx, k.c, k.ref.ID)
		if err != nil {
			k.nameE = err
		} else {
			k.name = &a.Name
		}
	}
	if k.nameE != nil {
		return "", k.nameE
	}
	return *k.name, nil
}

// literal is the NRQL literal of v in a list of attr, built by the NRQL helpers.
func literal(attr, v string) (string, error) {
	var n NRQL
	if attr == "appId" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("appId %q: %w", v, err)
		}
		n.Int(id)
	} else {
		n.Str(v)
	}
	return n.Build()
}

// named reports whether a list of the query names the entity.
func (k *entityKeys) named(ctx context.Context, lists []nrqlwhere.List) (bool, error) {
	for _, l := range lists {
		v, err := k.value(ctx, l.Attribute)
		if err != nil {
			return false, err
		}
		if v != "" && l.Index(v) >= 0 {
			return true, nil
		}
	}
	return false, nil
}

// ListEntityConditions answers GET /v2/alerts_entity_conditions/{entity_id}: every NRQL
// condition of the account whose WHERE clause lists the entity (a round trip per 200
// conditions; queries the parser cannot read are left out, as they name no list it
// can edit).
func (t *Translator) ListEntityConditions(ctx context.Context, c Caller, ref EntityRef) (*restv2.EntityConditionList, error) {
	p, err := nrqlwhere.New()
	if err != nil {
		return nil, err
	}
	keys := &entityKeys{t: t, c: c, ref: ref}
	out := &restv2.EntityConditionList{Conditions: []restv2.NrqlCondition{}}
	var cursor *string
	for {
		resp, err := ng.NrqlConditions(ctx, t.client, int(c.AccountID), ng.AlertsNrqlConditionsSearchCriteriaInput{}, cursor)
		if err != nil {
			return nil, fmt.Errorf("nrql conditions: %w", err)
		}
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.NrqlConditionsSearch == nil {
			break
		}
		s := a.Account.Alerts.NrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f == nil {
				continue
			}
			nq := f.GetNrql()
			lists, err := p.EntityLists(string(nq.Query))
			if err != nil {
				continue
			}
			ok, err := keys.named(ctx, lists)
			if err != nil {
				return nil, err
			}
			if ok {
				out.Conditions = append(out.Conditions, nrqlConditionOf(f))
			}
		}
		if cursor = s.NextCursor; cursor == nil {
			break
		}
	}
	return out, nil
}

// AddEntityCondition answers PUT /v2/alerts_entity_conditions/{entity_id}?condition_id=:
// the entity is appended to the condition's entity list (appId first, then appName,
// then entity.guid, whichever the query has: nrqlwhere.EntityAttributes' order). A condition that already names
// the entity is answered unchanged, without a write.
func (t *Translator) AddEntityCondition(ctx context.Context, c Caller, ref EntityRef, conditionID int64) (*restv2.EntityConditionShow, error) {
	return t.editEntityCondition(ctx, c, ref, conditionID, true)
}

// RemoveEntityCondition answers DELETE /v2/alerts_entity_conditions/{entity_id}: the
// entity is removed from every entity list of the condition that names it. A condition
// that does not name it is answered unchanged; removing the last entity of a list is
// refused with 409 (`IN ()` is not NRQL).
func (t *Translator) RemoveEntityCondition(ctx context.Context, c Caller, ref EntityRef, conditionID int64) (*restv2.EntityConditionShow, error) {
	return t.editEntityCondition(ctx, c, ref, conditionID, false)
}

func (t *Translator) editEntityCondition(ctx context.Context, c Caller, ref EntityRef, id int64, add bool) (*restv2.EntityConditionShow, error) {
	p, err := nrqlwhere.New()
	if err != nil {
		return nil, err
	}
	cur, err := t.nrqlCondition(ctx, c, id)
	if ve := (*restv2.Error)(nil); errors.As(err, &ve) && ve.Status == restv2.StatusNotFound {
		// The ids REST's procedure finds come from /alerts_conditions: say so when the
		// id is a legacy metric condition rather than answering "not found".
		if legacy, lerr := t.isLegacyCondition(ctx, c, id); lerr == nil && legacy {
			return nil, errLegacyEntityCondition(id)
		}
	}
	if err != nil {
		return nil, err
	}
	nq := cur.GetNrql()
	query := string(nq.Query)
	lists, err := p.EntityLists(query)
	switch {
	case errors.Is(err, nrqlwhere.ErrNoWhere):
		return nil, errNoEntityList(id, "its NRQL query has no WHERE clause")
	case err != nil:
		return nil, errNoEntityList(id, "its NRQL query could not be parsed ("+err.Error()+")")
	case len(lists) == 0:
		return nil, errNoEntityList(id, "its WHERE clause has no appId, appName or entity.guid IN (...) list")
	}
	keys := &entityKeys{t: t, c: c, ref: ref}
	next := query
	if add {
		named, err := keys.named(ctx, lists)
		if err != nil {
			return nil, err
		}
		if !named {
			if next, err = addTo(ctx, keys, query, lists); err != nil {
				return nil, err
			}
		}
	} else {
		// Remove from each list in turn, parsing again after each edit (offsets move).
		for changed := true; changed; {
			changed = false
			for _, l := range lists {
				v, err := keys.value(ctx, l.Attribute)
				if err != nil {
					return nil, err
				}
				i := l.Index(v)
				if v == "" || i < 0 {
					continue
				}
				if next, err = l.Remove(next, i); err != nil {
					return nil, restv2.Conflict("Alert condition " + strconv.FormatInt(id, 10) + ": " + err.Error() +
						"; disable or delete the condition instead (PUT or DELETE /v2/alerts_nrql_conditions/" + strconv.FormatInt(id, 10) + ")")
				}
				if lists, err = p.EntityLists(next); err != nil {
					return nil, fmt.Errorf("nrql after removing an entity: %w", err)
				}
				changed = true
				break
			}
		}
	}
	if next == query {
		return &restv2.EntityConditionShow{Condition: nrqlConditionOf(cur)}, nil
	}
	typ := strings.ToLower(string(cur.GetType()))
	upd, err := t.UpdateNrqlCondition(ctx, c, id, restv2.NrqlConditionInput{Type: &typ, Query: &next})
	if err != nil {
		return nil, err
	}
	return &restv2.EntityConditionShow{Condition: upd.Condition}, nil
}

// addTo appends the entity to the first list of the preferred attribute.
func addTo(ctx context.Context, keys *entityKeys, query string, lists []nrqlwhere.List) (string, error) {
	for _, attr := range nrqlwhere.EntityAttributes {
		for _, l := range lists {
			if l.Attribute != attr || (attr != "appId") != l.Strings {
				continue // a list whose literals are not of the attribute's kind is not edited
			}
			v, err := keys.value(ctx, attr)
			if err != nil {
				return "", err
			}
			if v == "" {
				continue
			}
			lit, err := literal(attr, v)
			if err != nil {
				return "", err
			}
			return l.Add(query, lit), nil
		}
	}
	return "", errNoEntityList(0, "no list of this entity's kind")
}

// errLegacyEntityCondition is the 501 for changing the entities of a legacy metric
// condition: NerdGraph has no mutation for it.
func errLegacyEntityCondition(id int64) *restv2.Error {
	return restv2.NotImplemented("Alert condition " + strconv.FormatInt(id, 10) + " is a legacy metric condition: NerdGraph " +
		"cannot change its entities. Replace it with an NRQL condition whose WHERE clause lists the entities " +
		"(POST /v2/alerts_nrql_conditions/policies/{policy_id}), or send this call to the REST API, which keeps this " +
		"namespace (retained_alerts: passthrough)")
}

// isLegacyCondition reports whether id is one of the account's legacy metric
// conditions (asNrqlConditionsSearch over the legacy products; a round trip per 200,
// only on the error path).
func (t *Translator) isLegacyCondition(ctx context.Context, c Caller, id int64) (bool, error) {
	want := strconv.FormatInt(id, 10)
	crit := ng.AlertsAsNrqlConditionsSearchCriteriaInput{SourceProduct: legacyProducts()}
	var cursor *string
	for {
		resp, err := ng.AsNrqlConditions(ctx, t.client, int(c.AccountID), crit, cursor)
		if err != nil {
			return false, fmt.Errorf("legacy conditions: %w", err)
		}
		a := resp.GetActor()
		if a == nil || a.Account == nil || a.Account.Alerts == nil || a.Account.Alerts.AsNrqlConditionsSearch == nil {
			return false, nil
		}
		s := a.Account.Alerts.AsNrqlConditionsSearch
		for _, f := range s.NrqlConditions {
			if f != nil && f.GetId() == want {
				return true, nil
			}
		}
		if cursor = s.NextCursor; cursor == nil {
			return false, nil
		}
	}
}
