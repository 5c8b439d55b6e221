package translate

import (
	"context"
	"time"

	"github.com/v2bridge/v2bridge/state"
)

// The reads that can vouch for an answer (state.Basis) note each entry they served on
// the request's Notes; the gateway replays an answer read wholly from such entries
// while Holds says they are unchanged, and lists the routes whose every read vouches.

// Holds reports whether every entry b names is still what its read would read now
// (state.Stores.Holds).
func (t *Translator) Holds(b *state.Basis) bool {
	return t != nil && t.st.Holds(b, t.now())
}

// Basis returns a copy of the basis the request's reads noted.
func (n *Notes) Basis() state.Basis {
	if n == nil {
		return state.Basis{}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.basis == nil {
		return state.Basis{}
	}
	return *n.basis
}

// note adds r to the basis (state.Basis.Note).
func (n *Notes) note(r state.Read, until time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.basis == nil {
		n.basis = new(state.Basis) // only a request read from the caches has one
	}
	n.basis.Note(r, until)
}

// vouchedGet is cache.Get that notes the entry it served on the request's Notes (see
// state.Basis); until is when the clock next changes key (zero: never).
func vouchedGet(ctx context.Context, cache *state.Cache, key string, until time.Time) (any, bool) {
	return vouchedGetGen(ctx, cache, key, state.Read{}, until)
}

// vouchedGetGen is vouchedGet for a key holding an account's write count (r's Account
// and Gen).
func vouchedGetGen(ctx context.Context, cache *state.Cache, key string, r state.Read, until time.Time) (any, bool) {
	v, stamp, ok := cache.GetStamped(key)
	if !ok {
		return v, false
	}
	if n, _ := ctx.Value(notesKey{}).(*Notes); n != nil {
		r.Cache, r.Key, r.Stamp = cache, key, stamp
		n.note(r, until)
	}
	return v, true
}
