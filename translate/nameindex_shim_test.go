package translate

import (
	"context"

	"github.com/v2bridge/v2bridge/translate/nameindex"
)

// The name index's tests through the translator name it as the translator asks it.

type nameEntry = nameindex.Entry

var errNameIndexTooLarge = nameindex.ErrTooLarge

const (
	nameIndexRefreshes = nameindex.Refreshes
	maxNamePages       = nameindex.MaxPages
	nameIndexRetry     = nameindex.RefreshRetry
)

var errNamePages = nameindex.ErrPages

func nameLanguages() []string { return nameindex.Languages() }

// nameIndex is c's index as indexedMatches gets it.
func (t *Translator) nameIndex(ctx context.Context, c Caller) ([]nameEntry, bool, error) {
	return t.index.Get(ctx, c.indexCaller(), t.st.Writes.Gen(c.AccountID))
}

// readNameIndex reads c's index from NerdGraph, not keeping it.
func (t *Translator) readNameIndex(ctx context.Context, c Caller) ([]nameEntry, error) {
	return t.index.Read(ctx, c.indexCaller())
}
