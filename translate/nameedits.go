package translate

import (
	"cmp"
	"slices"
	"strings"
)

// A write through the gateway that changes an APM application (a rename, a delete)
// changes that application's entry of the writer's name index in place, here and in
// the fleet's store, and the index takes the account's new write count: nothing reads
// the account again. A write that changes no entry (another setting, a browser
// application created) only moves the index to the new count. Another replica that
// hears of the write (the fleet's write count) takes the edited index from the store
// before it serves its own (nameIndex). A write whose outcome is unknown (it may have
// half applied) edits nothing: the index is then read again in the background, as
// for a write made elsewhere.

// nameEdit is one write's change to an index: the entry of id put (a rename, a
// create: its name, language and reporting) or removed (a delete).
type nameEdit struct {
	entry   nameEntry
	removed bool
}

// wroteApps retires the account's cached reads after a write (wroteAccount) and, when
// the write's outcome is known (applied or refused), applies edits to the writer's
// name index with the account's write count after it.
func (t *Translator) wroteApps(c Caller, known bool, edits ...nameEdit) {
	t.wroteAccount(c)
	if !known || t.nameLike {
		return
	}
	t.editIndex(c, t.writes.Gen(c.AccountID), edits)
}

// editIndex applies edits to c's index (this replica's, else the store's) and keeps the
// result as it with write count gen; no index, or one past the cap, is left as it is.
func (t *Translator) editIndex(c Caller, gen uint64, edits []nameEdit) {
	x := t.index
	key := c.cacheKey("apps-index")
	x.edits.Lock() // edits of this replica apply one after another, none lost
	defer x.edits.Unlock()
	now := t.now()
	ix, ok := x.local(key)
	if !ok || !x.servable(ix, now) {
		if ix, ok = t.sharedIndex(c, key); !ok || !x.servable(ix, now) {
			return
		}
	}
	if ix.tooLarge || ix.gen > gen {
		return
	}
	next := &nameIndex{entries: ix.entries, readAt: ix.readAt, gen: gen, retryAt: ix.retryAt}
	for _, e := range edits {
		next.entries = editEntries(next.entries, c.AccountID, e)
	}
	t.keepIndex(key, next)
}

// editEntries is es with e applied, in the index's order (nameEntries): a new slice,
// since es may be served meanwhile. account makes the guids that order equal names.
func editEntries(es []nameEntry, account int64, e nameEdit) []nameEntry {
	out := make([]nameEntry, 0, len(es)+1)
	for _, have := range es {
		if have.id != e.entry.id {
			out = append(out, have)
		}
	}
	if e.removed || e.entry.id == 0 {
		return slices.Clip(out)
	}
	lower, guid := strings.ToLower(e.entry.name), AppGUID(account, DomainAPM, e.entry.id)
	at, _ := slices.BinarySearchFunc(out, e.entry, func(have, _ nameEntry) int {
		return cmp.Or(strings.Compare(strings.ToLower(have.name), lower), strings.Compare(have.name, e.entry.name),
			strings.Compare(AppGUID(account, DomainAPM, have.id), guid))
	})
	return slices.Insert(out, at, e.entry)
}
