package translate

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
)

// maxKeyPages bounds the pages of user keys read to find the caller's own.
const maxKeyPages = 20

// OwnAccount is the account the caller's user key belongs to: the account it was created
// in, NerdGraph's ApiAccessUserKey.accountId. New Relic's migration guide says REST v2
// "made assumptions based on the account used to create the User API key"
// (newrelic/docs-website src/content/docs/apis/rest-api-v2/migrate-to-nerdgraph.mdx):
// a key reaching several accounts, with none named, was answered for that one.
// NerdGraph returns the caller's own keys whole and other users' obfuscated, so the
// key is found among the user keys the caller may see by its value (compared by its
// SHA-256: the key itself is not held here). ok is false when NerdGraph does not say:
// the key is not among the first maxKeyPages pages, or the search was refused. The
// answer, known or not, is cached per key hash in the accounts cache, which serves it
// only while NerdGraph accepted the key within the auth TTL.
func (t *Translator) OwnAccount(ctx context.Context, keyHash string) (id int64, ok bool, err error) {
	key := Caller{KeyHash: keyHash}.cacheKey("own_account")
	if v, hit := vouchedGet(ctx, t.st.Accounts, key, time.Time{}); hit {
		if ids, _ := v.([]int64); len(ids) == 1 {
			return ids[0], true, nil
		}
		return 0, false, nil
	}
	id, ok, err = t.findOwnAccount(ctx)
	if err != nil {
		return 0, false, err
	}
	ids := []int64{} // the codec of the shared accounts cache holds a list
	if ok {
		ids = append(ids, id)
	}
	t.st.Accounts.Set(key, ids)
	return id, ok, nil
}

func (t *Translator) findOwnAccount(ctx context.Context) (int64, bool, error) {
	sum, ok := ng.APIKeySum(ctx)
	if !ok {
		return 0, false, nil
	}
	var cursor *string
	for range maxKeyPages {
		if err := ctx.Err(); err != nil {
			return 0, false, err
		}
		resp, err := ng.UserKeys(ctx, t.client, cursor)
		if err != nil {
			var ge *ng.Error
			if errors.As(err, &ge) && (ge.Kind == ng.KindForbidden || ge.Kind == ng.KindNotFound || ge.Kind == ng.KindInvalid) {
				return 0, false, nil // NerdGraph does not say
			}
			return 0, false, fmt.Errorf("user keys: %w", err)
		}
		if resp == nil || resp.Actor == nil || resp.Actor.ApiAccess == nil || resp.Actor.ApiAccess.KeySearch == nil {
			return 0, false, nil
		}
		page := resp.Actor.ApiAccess.KeySearch
		for _, k := range page.Keys {
			if k == nil {
				continue
			}
			uk, isUser := (*k).(*ng.UserKeysActorApiAccessApiAccessActorStitchedFieldsKeySearchApiAccessKeySearchResultKeysApiAccessUserKey)
			if !isUser || uk.Key == nil || uk.AccountId == nil || *uk.AccountId <= 0 {
				continue
			}
			if s := sha256.Sum256([]byte(*uk.Key)); subtle.ConstantTimeCompare(s[:], sum[:]) == 1 {
				return int64(*uk.AccountId), true, nil
			}
		}
		if page.NextCursor == nil || *page.NextCursor == "" || (cursor != nil && *page.NextCursor == *cursor) {
			return 0, false, nil
		}
		cursor = page.NextCursor
	}
	return 0, false, nil
}

// CachedOwnAccount is the account OwnAccount has cached for the key, without a
// NerdGraph call; ok is false when none is cached or NerdGraph did not say.
func (t *Translator) CachedOwnAccount(keyHash string) (int64, bool) {
	v, ok := t.st.Accounts.Get(Caller{KeyHash: keyHash}.cacheKey("own_account"))
	if ids, _ := v.([]int64); ok && len(ids) == 1 {
		return ids[0], true
	}
	return 0, false
}
