package translate

import gql "github.com/Khan/genqlient/graphql"

// DryRun returns a Translator that builds exactly the operations t would (same clock,
// same metric-name window, same name filter, same warnings) but sends them through client and starts
// with empty caches, so every round trip of a request shows. `v2bridge explain` gives
// it a graphql.Recorder, which sends nothing.
func (t *Translator) DryRun(client gql.Client) *Translator {
	return New(client, Options{Now: t.now, MetricNamesWindow: t.namesWindow, NameLike: t.nameLike, Warn: t.warn})
}

// CachedAccounts returns the accounts a key reaches when this translator already holds
// them (a recent request of the key looked them up), without calling NerdGraph.
func (t *Translator) CachedAccounts(keyHash string) ([]int64, bool) {
	v, ok := t.accounts.Get(Caller{KeyHash: keyHash}.cacheKey("accounts"))
	if !ok {
		return nil, false
	}
	ids, ok := v.([]int64)
	return ids, ok
}
