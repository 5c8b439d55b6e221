package gateway

import (
	"context"
	"errors"
	"net/http"
	"slices"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// chosenAccountName names the account the gateway chose for a caller that reaches several
// and named none (sources "key" and "default"), so a script can tell where its call went.
const chosenAccountName = "X-V2bridge-Account"

// ownAccount scopes a key that reaches several accounts, with none named and no
// default_account_id, to the account the key belongs to (translate.OwnAccount): REST v2
// "made assumptions based on the account used to create the User API key"
// (newrelic/docs-website src/content/docs/apis/rest-api-v2/migrate-to-nerdgraph.mdx).
// When NerdGraph does not say, or names an account the key does not reach, the caller
// is asked to name one (422).
func (g *Gateway) ownAccount(ctx context.Context, ids []int64, keyHash string) (int64, string, error) {
	id, ok, err := g.tr.OwnAccount(ctx, keyHash)
	if err != nil {
		var ge *ng.Error
		if errors.As(err, &ge) && ge.Kind == ng.KindAuth {
			return 0, "", restv2.ErrInvalidAPIKey()
		}
		return 0, "", err
	}
	if ok && slices.Contains(ids, id) {
		return id, "key", nil
	}
	return 0, "", restv2.Unprocessable("This API key reaches several New Relic accounts; " +
		"name one with the X-Account-ID header or an /accounts/{account_id}/v2/... base URL, " +
		"or set default_account_id in the v2bridge configuration")
}

// chosenAccountHeader sets chosenAccountName on an answer whose account the gateway chose
// among several (or none) the key reaches.
func chosenAccountHeader(h http.Header, acct int64, source string) {
	if source == "key" || source == "default" {
		h.Set(chosenAccountName, itoa(acct))
	}
}
