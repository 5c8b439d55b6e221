package sim

import (
	"context"
	"slices"

	"github.com/v2bridge/v2bridge/sim/model"
)

type apiAccessResolver struct{ *resolver }

// KeySearch answers the user keys the caller may see: the simulator knows each caller's
// own key only, which NerdGraph returns whole to its owner (other users' keys come back
// obfuscated), with the account it was created in (User.Account). Ingest keys are not
// modelled: a search for them finds none. The scope's accountIds and userIds narrow
// the answer; everything fits on one page.
func (apiAccessResolver) KeySearch(ctx context.Context, _ *model.APIAccessActorStitchedFields, _ *string, query model.APIAccessKeySearchQuery) (*model.APIAccessKeySearchResult, error) {
	c := requestFrom(ctx).caller
	out := &model.APIAccessKeySearchResult{Count: ptr(0)}
	k := c.key
	if k == nil || !slices.ContainsFunc(query.Types, func(t *model.APIAccessKeyType) bool {
		return t != nil && *t == model.APIAccessKeyTypeUser
	}) {
		return out, nil
	}
	if s := query.Scope; s != nil {
		if len(s.AccountIds) > 0 && !containsInt(s.AccountIds, k.AccountID) ||
			len(s.UserIds) > 0 && !containsInt(s.UserIds, k.UserID) {
			return out, nil
		}
	}
	out.Keys, out.Count = []model.APIAccessKey{k}, ptr(1)
	return out, nil
}

func containsInt(list []*int, v *int) bool {
	return v != nil && slices.ContainsFunc(list, func(p *int) bool { return p != nil && *p == *v })
}
