package translate

import (
	"context"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate/nameindex"
)

// The accounts' name indexes live in translate/nameindex (their state, read, stored
// form, refresh and edits); the translator asks them (indexedMatches) and tells them
// of its writes (wroteApps).

// The name index's defaults (nameindex).
const (
	DefaultNameIndexRefresh  = nameindex.DefaultRefresh
	DefaultNameIndexMaxStale = nameindex.DefaultMaxStale
	DefaultNameIndexMaxApps  = nameindex.DefaultMaxApps
	DefaultNameIndexes       = nameindex.DefaultIndexes
)

// newNameIndexes are t's name indexes as opts configure them.
func newNameIndexes(t *Translator, opts Options) *nameindex.Indexes {
	shared, _ := opts.SharedCache.(state.SharedChunks)
	return nameindex.New(nameindex.Options{Refresh: opts.NameIndexRefresh, MaxStale: opts.NameIndexMaxStale,
		MaxApps: opts.NameIndexMaxApps, Indexes: opts.NameIndexes, Shared: shared, ObserveCache: opts.ObserveCache,
		Client: t.client, Query: appSearch, AppID: appIDFrom, Now: t.now, Detach: detached, Background: t.background,
		Accepted: t.st.FleetAccepted})
}

// appSearch is the entity search of accountID's APM applications: all, of language
// eq, or of none of notIn (nameindex.Options.Query).
func appSearch(accountID int64, eq string, notIn []string) (string, error) {
	q := EntitySearch(accountID, DomainAPM, TypeApp)
	if eq != "" {
		q.Eq("language", eq)
	}
	if len(notIn) > 0 {
		q.NotIn("language", notIn)
	}
	return q.Build()
}

// indexCaller is c as its name index knows it.
func (c Caller) indexCaller() nameindex.Caller {
	return nameindex.Caller{Key: c.cacheKey("apps-index"), KeyHash: c.KeyHash, AccountID: c.AccountID}
}

// wroteApps retires the account's cached reads after a write (wroteAccount) and, when
// the write's outcome is known (applied or refused), applies edits to the writer's
// name index with the account's write count after it (nameindex.Indexes.Edit).
func (t *Translator) wroteApps(c Caller, known bool, edits ...nameindex.Edit) {
	t.wroteAccount(c)
	if !known || t.nameLike {
		return
	}
	guid := func(id int64) string { return AppGUID(c.AccountID, DomainAPM, id) }
	t.index.Edit(c.indexCaller(), t.st.Writes.Gen(c.AccountID), guid, edits)
}

// detached is ctx's values (the caller's key) without its end, notes or round-trip
// count, ending after d.
func detached(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	bg := WithNotes(context.WithoutCancel(ctx), nil)
	bg = ng.WithCalls(bg, &ng.Calls{})
	return context.WithTimeout(bg, d)
}
