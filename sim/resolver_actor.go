package sim

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/v2bridge/v2bridge/sim/internal/bind"
	"github.com/v2bridge/v2bridge/sim/model"
)

// maxEntitiesGuids is NerdGraph's limit on actor.entities(guids:).
const maxEntitiesGuids = 25

type actorResolver struct{ *resolver }

// Account returns an account the key reaches. For any other id (unknown ones
// included, the caller cannot tell them apart) the field is null with a FORBIDDEN
// error.
func (actorResolver) Account(ctx context.Context, _ *model.Actor, id int) (*model.Account, error) {
	req := requestFrom(ctx)
	if !req.caller.reach[id] {
		return nil, gqlError(classForbidden, "Access denied to account %d", id)
	}
	a := req.world.accounts[id]
	return &model.Account{ID: ptr(a.id), Name: ptr(a.name)}, nil
}

// Accounts lists the accounts the key reaches, by id; the scope argument is ignored
// (the simulator has one region).
func (actorResolver) Accounts(ctx context.Context, _ *model.Actor, _ *model.RegionScope) ([]*model.AccountOutline, error) {
	c := requestFrom(ctx).caller
	out := make([]*model.AccountOutline, len(c.accounts))
	for i, a := range c.accounts {
		out[i] = a.outline
	}
	return out, nil
}

// APIAccess holds the key lookups (apiaccess.go).
func (actorResolver) APIAccess(context.Context, *model.Actor) (*model.APIAccessActorStitchedFields, error) {
	return &model.APIAccessActorStitchedFields{}, nil
}

func (actorResolver) ChangeTracking(ctx context.Context, _ *model.Actor) (*model.ChangeTrackingActorStitchedFields, error) {
	return nil, unsupported(ctx)
}

// Entities returns the entities of the given guids that exist in a reachable account,
// in request order, each once; the others are left out.
func (actorResolver) Entities(ctx context.Context, _ *model.Actor, guids []*string) ([]model.Entity, error) {
	if len(guids) > maxEntitiesGuids {
		return nil, gqlError(classInvalidInput, "entities(guids:) accepts at most %d guids, %d given", maxEntitiesGuids, len(guids))
	}
	req := requestFrom(ctx)
	out := make([]model.Entity, 0, len(guids))
	seen := map[*entity]bool{}
	for _, g := range guids {
		if g == nil {
			continue
		}
		e, err := req.lookup(*g)
		if err != nil {
			return nil, err
		}
		if e != nil && !seen[e] {
			seen[e] = true
			out = append(out, e.full)
		}
	}
	return out, nil
}

// Entity returns the entity of guid, or null when it does not exist or lives in an
// account the key does not reach.
func (actorResolver) Entity(ctx context.Context, _ *model.Actor, guid string) (model.Entity, error) {
	e, err := requestFrom(ctx).lookup(guid)
	if e == nil || err != nil {
		return nil, err
	}
	return e.full, nil
}

// lookup finds a reachable entity by guid; malformed guids are an INVALID_INPUT error.
func (r *request) lookup(guid string) (*entity, error) {
	g, err := canonicalGUID(guid)
	if err != nil {
		return nil, gqlError(classInvalidInput, "Invalid entity guid %q", guid)
	}
	e := r.world.byGUID[g]
	if e == nil || !r.caller.reach[e.accountID] {
		return nil, nil
	}
	return e, nil
}

// EntitySearch evaluates the query (and/or query builder) against the entities of the
// reachable accounts. Paging happens in EntitySearch.results.
func (actorResolver) EntitySearch(ctx context.Context, _ *model.Actor, options *model.EntitySearchOptions, query *string, queryBuilder *model.EntitySearchQueryBuilder, sortBy []*model.EntitySearchSortCriteria, sortByWithDirection []*model.SortCriterionWithDirection) (*bind.EntitySearch, error) {
	descending, ok := nameDirection(sortBy, sortByWithDirection)
	if !ok {
		return nil, gqlError("", "entitySearch(sortByWithDirection:) other than one NAME criterion is %s", UnsupportedMessage)
	}
	var q node
	text := ""
	if query != nil && strings.TrimSpace(*query) != "" {
		n, err := parseQuery(*query)
		if err != nil {
			var se *syntaxError
			if errors.As(err, &se) {
				return nil, gqlError(classInvalidInput, "Invalid entity search query: %s", se.Error())
			}
			return nil, err
		}
		q, text = n, *query
	}
	if queryBuilder != nil {
		b, err := builderNode(queryBuilder)
		if err != nil {
			return nil, gqlError("", "%s", err.Error())
		}
		switch {
		case b == nil:
		case q == nil:
			q = b
			text = nodeString(q)
		default:
			q = &binaryNode{op: "AND", left: q, right: b}
			text = nodeString(q)
		}
	}
	if q == nil {
		return nil, gqlError(classInvalidInput, "entitySearch needs a query or a queryBuilder")
	}

	opts := compileOptions{}
	pageSize := searchPageSize
	if options != nil {
		opts.caseSensitiveTags = options.CaseSensitiveTagMatching != nil && *options.CaseSensitiveTagMatching
		if options.Limit != nil && *options.Limit > 0 && *options.Limit < pageSize {
			pageSize = *options.Limit
		}
	}
	match := compile(q, opts)
	c := requestFrom(ctx).caller
	var matches []*entity
	for _, e := range c.entities {
		if match(e) {
			matches = append(matches, e)
		}
	}
	criteria := make([]model.EntitySearchSortCriteria, 0, len(sortBy))
	order := make([]string, 0, len(sortBy))
	for _, s := range sortBy {
		if s != nil {
			criteria = append(criteria, *s)
			order = append(order, string(*s))
		}
	}
	sortMatches(matches, criteria)
	if descending {
		slices.Reverse(matches)
		order = append(order, "DESC")
	}
	caseFlag := "i"
	if opts.caseSensitiveTags {
		caseFlag = "s"
	}
	st := &searchState{
		matches:     matches,
		pageSize:    pageSize,
		fingerprint: fingerprint(nodeString(q), strings.Join(order, ","), c.scope, caseFlag),
	}
	return &bind.EntitySearch{Count: len(matches), Query: text, State: st}, nil
}

// Nrql runs NRQL across accounts, all of which the key must reach.
func (r actorResolver) Nrql(ctx context.Context, _ *model.Actor, accounts []int, _ *bool, _ *model.NrqlQueryOptions, query string, timeout *float64) (*model.CrossAccountNrdbResultContainer, error) {
	if len(accounts) == 0 {
		return nil, gqlError(classInvalidInput, "nrql(accounts:) needs at least one account")
	}
	c := requestFrom(ctx).caller
	for _, id := range accounts {
		if !c.reach[id] {
			return nil, gqlError(classForbidden, "Access denied to account %d", id)
		}
	}
	res, err := r.s.runNRQL(ctx, accounts, query, timeout)
	if err != nil {
		return nil, err
	}
	return &model.CrossAccountNrdbResultContainer{Results: res.results, Metadata: res.metadata, Nrql: ptr(query)}, nil
}

func (actorResolver) NrqlQueryProgress(ctx context.Context, _ *model.Actor, _ []int, _ string) (*model.CrossAccountNrdbResultContainer, error) {
	return nil, unsupported(ctx)
}

// User is the key's owner.
func (actorResolver) User(ctx context.Context, _ *model.Actor) (*model.User, error) {
	return requestFrom(ctx).caller.user, nil
}

type accountResolver struct{ *resolver }

func (accountResolver) AiIssues(ctx context.Context, obj *model.Account) (*bind.AiIssuesAccount, error) {
	if obj.ID == nil {
		return nil, nil
	}
	return &bind.AiIssuesAccount{AccountID: *obj.ID}, nil
}

func (accountResolver) Alerts(ctx context.Context, obj *model.Account) (*bind.AlertsAccount, error) {
	if obj.ID == nil {
		return nil, nil
	}
	return &bind.AlertsAccount{AccountID: *obj.ID}, nil
}

// Nrql runs NRQL in the account (actor.account already checked that the key reaches
// it). The async flag and options are ignored: queries always complete synchronously.
func (r accountResolver) Nrql(ctx context.Context, obj *model.Account, _ *bool, _ *model.NrqlQueryOptions, query string, timeout *float64) (*model.NrdbResultContainer, error) {
	res, err := r.s.runNRQL(ctx, []int{*obj.ID}, query, timeout)
	if err != nil {
		return nil, err
	}
	return &model.NrdbResultContainer{Results: res.results, Metadata: res.metadata, Nrql: ptr(query)}, nil
}

func (accountResolver) NrqlQueryProgress(ctx context.Context, _ *model.Account, _ string) (*model.NrdbResultContainer, error) {
	return nil, unsupported(ctx)
}
