package nameindex

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
// before it serves its own (Get). A write whose outcome is unknown (it may have half
// applied) edits nothing: the index is then read again in the background, as for a
// write made elsewhere.

// Entry is one application of an account's name index, as its search page gave it.
type Entry struct {
	ID             int64
	Name, Language string
	Reporting      bool
}

// Edit is one write's change to an index: the entry of Entry.ID put (a rename, a
// create: its name, language and reporting) or removed (a delete).
type Edit struct {
	Entry   Entry
	Removed bool
}

// Edit applies edits to c's index (this replica's, else the store's) and keeps the
// result as it with write count gen; no index, or one past the cap, is left as it is.
// guid is an application's guid in c's account (the index's order among equal names).
func (x *Indexes) Edit(c Caller, gen uint64, guid func(id int64) string, edits []Edit) {
	x.edits.Lock() // edits of this replica apply one after another, none lost
	defer x.edits.Unlock()
	now := x.opts.Now()
	ix, ok := x.local(c.Key)
	if !ok || !x.servable(ix, now) {
		if ix, ok = x.sharedIndex(c); !ok || !x.servable(ix, now) {
			return
		}
	}
	if ix.tooLarge || ix.gen > gen {
		return
	}
	next := &index{entries: ix.entries, readAt: ix.readAt, gen: gen, retryAt: ix.retryAt}
	for _, e := range edits {
		next.entries = EditEntries(next.entries, guid, e)
	}
	x.keep(c, next)
}

// EditEntries is es with e applied, in the index's order (by name without case, name,
// guid): a new slice, since es may be served meanwhile.
func EditEntries(es []Entry, guid func(id int64) string, e Edit) []Entry {
	out := make([]Entry, 0, len(es)+1)
	for _, have := range es {
		if have.ID != e.Entry.ID {
			out = append(out, have)
		}
	}
	if e.Removed || e.Entry.ID == 0 {
		return slices.Clip(out)
	}
	lower, g := strings.ToLower(e.Entry.Name), guid(e.Entry.ID)
	at, _ := slices.BinarySearchFunc(out, e.Entry, func(have, _ Entry) int {
		return cmp.Or(strings.Compare(strings.ToLower(have.Name), lower), strings.Compare(have.Name, e.Entry.Name),
			strings.Compare(guid(have.ID), g))
	})
	return slices.Insert(out, at, e.Entry)
}
