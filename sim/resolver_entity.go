package sim

import (
	"context"
	"slices"
	"strings"

	"github.com/v2bridge/v2bridge/sim/internal/bind"
	"github.com/v2bridge/v2bridge/sim/model"
)

type entitySearchResolver struct{ *resolver }

func searchStateOf(obj *bind.EntitySearch) *searchState {
	st, _ := obj.State.(*searchState)
	if st == nil {
		return &searchState{pageSize: searchPageSize}
	}
	return st
}

// Results is one page (200 entities, or options.limit) from cursor; nextCursor is null
// on the last page.
func (entitySearchResolver) Results(_ context.Context, obj *bind.EntitySearch, cursor *string) (*model.EntitySearchResult, error) {
	st := searchStateOf(obj)
	offset := 0
	if cursor != nil && *cursor != "" {
		off, err := decodeCursor("es", *cursor, st.fingerprint)
		if err != nil || off > len(st.matches) {
			return nil, gqlError(classInvalidInput, "Invalid cursor")
		}
		offset = off
	}
	end := min(offset+st.pageSize, len(st.matches))
	entities := make([]model.EntityOutline, 0, end-offset)
	for _, e := range st.matches[offset:end] {
		entities = append(entities, e.outline)
	}
	res := &model.EntitySearchResult{Entities: entities}
	if end < len(st.matches) {
		res.NextCursor = ptr(encodeCursor("es", end, st.fingerprint))
	}
	return res, nil
}

// Types counts the matches per domain and type.
func (entitySearchResolver) Types(_ context.Context, obj *bind.EntitySearch) ([]*model.EntitySearchTypes, error) {
	st := searchStateOf(obj)
	var out []*model.EntitySearchTypes
	index := map[string]*model.EntitySearchTypes{}
	for _, e := range st.matches {
		k := e.domain + "|" + e.typ
		t := index[k]
		if t == nil {
			t = &model.EntitySearchTypes{Count: ptr(0), Domain: ptr(e.domain), Type: ptr(e.typ), EntityType: ptr(e.entityType)}
			index[k] = t
			out = append(out, t)
		}
		*t.Count++
	}
	slices.SortFunc(out, func(a, b *model.EntitySearchTypes) int {
		if c := strings.Compare(*a.Domain, *b.Domain); c != 0 {
			return c
		}
		return strings.Compare(*a.Type, *b.Type)
	})
	return out, nil
}

func (entitySearchResolver) Counts(ctx context.Context, _ *bind.EntitySearch, _ []model.EntitySearchCountsFacet, _ []string) ([]*model.EntitySearchCounts, error) {
	return nil, unsupported(ctx)
}

type apmApplicationResolver struct{ *resolver }

// ApplicationInstances lists the running instances, optionally of one host. The time
// window is ignored: simulated instances run all the time.
func (apmApplicationResolver) ApplicationInstances(ctx context.Context, obj *model.ApmApplicationEntity, _ *int64, host *string, _ *int64) ([]*model.AgentEnvironmentApplicationInstance, error) {
	e := requestFrom(ctx).world.byGUID[*obj.GUID]
	out := make([]*model.AgentEnvironmentApplicationInstance, 0, len(e.instances))
	for _, in := range e.instances {
		if host == nil || strings.EqualFold(in.Details.Host, *host) {
			out = append(out, in)
		}
	}
	return out, nil
}

// ApplicationInstancesV2 returns every instance on one page.
func (apmApplicationResolver) ApplicationInstancesV2(ctx context.Context, obj *model.ApmApplicationEntity, cursor *string) (*model.AgentEnvironmentApplicationInstancesResult, error) {
	if cursor != nil && *cursor != "" {
		return nil, gqlError(classInvalidInput, "Invalid cursor")
	}
	e := requestFrom(ctx).world.byGUID[*obj.GUID]
	return &model.AgentEnvironmentApplicationInstancesResult{ApplicationInstances: e.instances}, nil
}

func (apmApplicationResolver) RelatedEntities(ctx context.Context, obj *model.ApmApplicationEntity, cursor *string, filter *model.EntityRelationshipEdgeFilter, limit *int) (*model.EntityRelationshipRelatedEntitiesResult, error) {
	return relatedEntities(ctx, *obj.GUID, cursor, filter, limit)
}

type browserApplicationResolver struct{ *resolver }

func (browserApplicationResolver) RelatedEntities(ctx context.Context, obj *model.BrowserApplicationEntity, cursor *string, filter *model.EntityRelationshipEdgeFilter, limit *int) (*model.EntityRelationshipRelatedEntitiesResult, error) {
	return relatedEntities(ctx, *obj.GUID, cursor, filter, limit)
}

// relatedEntities lists the edges of an entity whose other end the key reaches,
// filtered by direction (relative to the entity), the other end's domain and type, and
// the edge type; limit pages them.
func relatedEntities(ctx context.Context, guid string, cursor *string, filter *model.EntityRelationshipEdgeFilter, limit *int) (*model.EntityRelationshipRelatedEntitiesResult, error) {
	req := requestFrom(ctx)
	e := req.world.byGUID[guid]
	var edges []*edge
	for _, ed := range e.edges {
		other := ed.target
		if other == e {
			other = ed.source
		}
		if req.caller.reach[other.accountID] && edgeMatches(e, other, ed, filter) {
			edges = append(edges, ed)
		}
	}
	fp := fingerprint(guid)
	offset := 0
	if cursor != nil && *cursor != "" {
		off, err := decodeCursor("re", *cursor, fp)
		if err != nil || off > len(edges) {
			return nil, gqlError(classInvalidInput, "Invalid cursor")
		}
		offset = off
	}
	end := len(edges)
	if limit != nil && *limit > 0 {
		end = min(offset+*limit, end)
	}
	res := &model.EntityRelationshipRelatedEntitiesResult{Results: make([]model.EntityRelationshipEdge, 0, end-offset)}
	for _, ed := range edges[offset:end] {
		res.Results = append(res.Results, ed.gql)
	}
	if end < len(edges) {
		res.NextCursor = ptr(encodeCursor("re", end, fp))
	}
	return res, nil
}

func edgeMatches(self, other *entity, ed *edge, f *model.EntityRelationshipEdgeFilter) bool {
	if f == nil {
		return true
	}
	if f.Direction != nil {
		switch *f.Direction {
		case model.EntityRelationshipEdgeDirectionOutbound:
			if ed.source != self {
				return false
			}
		case model.EntityRelationshipEdgeDirectionInbound:
			if ed.target != self {
				return false
			}
		}
	}
	if dt := f.EntityDomainTypes; dt != nil {
		is := func(d *model.DomainTypeInput) bool {
			return strings.EqualFold(d.Domain, other.domain) && strings.EqualFold(d.Type, other.typ)
		}
		if len(dt.Include) > 0 && !slices.ContainsFunc(dt.Include, is) {
			return false
		}
		if slices.ContainsFunc(dt.Exclude, is) {
			return false
		}
	}
	if rt := f.RelationshipTypes; rt != nil {
		if len(rt.Include) > 0 && !slices.Contains(rt.Include, ed.typ) {
			return false
		}
		if slices.Contains(rt.Exclude, ed.typ) {
			return false
		}
	}
	return true
}

type instanceResolver struct{ *resolver }

// EnvironmentAttributes lists an instance's environment attributes; the filter applies
// to attribute names, every condition given must hold.
func (instanceResolver) EnvironmentAttributes(ctx context.Context, obj *model.AgentEnvironmentApplicationInstance, f *model.AgentEnvironmentFilter) ([]*model.AgentEnvironmentAttribute, error) {
	attrs := requestFrom(ctx).world.instanceEnv[obj.Details.ID]
	if f == nil {
		return attrs, nil
	}
	out := make([]*model.AgentEnvironmentAttribute, 0, len(attrs))
	for _, a := range attrs {
		n := a.Attribute
		if (f.Equals != nil && n != *f.Equals) ||
			(f.Contains != nil && !strings.Contains(n, *f.Contains)) ||
			(f.DoesNotContain != nil && strings.Contains(n, *f.DoesNotContain)) ||
			(f.StartsWith != nil && !strings.HasPrefix(n, *f.StartsWith)) {
			continue
		}
		out = append(out, a)
	}
	return out, nil
}
