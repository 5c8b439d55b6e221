package translate

import (
	"context"
	"sync/atomic"

	gql "github.com/Khan/genqlient/graphql"

	"github.com/v2bridge/v2bridge/state"
)

// The edge decides whether a caller's key is accepted (gateway/keyauth.go); the
// translator is told who the caller is (WithKeyHash on each request's context), passes
// NerdGraph's answer to every call made for that key back to the edge (KeyVerdicts),
// and serves cached answers only while the edge says the key is fresh (UseKeys).

type keyHashKey struct{}

// WithKeyHash puts the hash of the caller's presented key on ctx, so that NerdGraph's
// verdict on the key (accepted, or refused with 401/403) is recorded against it.
func WithKeyHash(ctx context.Context, keyHash string) context.Context {
	return context.WithValue(ctx, keyHashKey{}, keyHash)
}

func keyHashFrom(ctx context.Context) string {
	s, _ := ctx.Value(keyHashKey{}).(string)
	return s
}

// KeyVerdicts is the edge's acceptance of callers' keys: it hears the outcome of every
// NerdGraph call made for a key (err nil: answered) and says whether cached answers may
// be served to a key (state.KeyCheck).
type KeyVerdicts interface {
	state.KeyCheck
	Verdict(keyHash string, err error)
}

// UseKeys hands the translator the edge's key acceptance: every call's outcome is told
// to k, and the caches serve an entry only while k says its key is fresh. Without it
// every key is fresh and nothing is told. Call it once, before requests are served.
func (t *Translator) UseKeys(k KeyVerdicts) {
	t.keys.Store(&k)
	t.st.CheckKeys(k)
}

// DropKey drops every cached answer of keyHash (a key NerdGraph refused).
func (t *Translator) DropKey(keyHash string) { t.st.DropKey(keyHash) }

// SharedCache is the fleet's cache store the translator shares its caches through (nil:
// none); the edge shares its verdicts on keys there too.
func (t *Translator) SharedCache() state.SharedCache { return t.st.SharedCache() }

// verdictClient tells the edge (keys) the outcome of every call made for a caller's key.
type verdictClient struct {
	next gql.Client
	keys *atomic.Pointer[KeyVerdicts]
}

func (v verdictClient) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	err := v.next.MakeRequest(ctx, req, resp)
	if keyHash := keyHashFrom(ctx); keyHash != "" {
		if k := v.keys.Load(); k != nil {
			(*k).Verdict(keyHash, err)
		}
	}
	return err
}
