package graphql

import "sync"

// keyed holds one value per key hash, made on the key's first use and dropped when its
// last user is done, so it holds only the keys in flight: the per-key NerdGraph slots
// (keySlots) and the per-key halves of the answer budget (answerGate). The zero value is
// ready.
type keyed[T any] struct {
	mu sync.Mutex
	m  map[[32]byte]*keyedEntry[T]
}

type keyedEntry[T any] struct {
	v     T
	users int
}

// take returns h's value, made by mk when h has none, and done, which the caller calls
// once when it no longer uses the value.
func (k *keyed[T]) take(h [32]byte, mk func() T) (v T, done func()) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[[32]byte]*keyedEntry[T]{}
	}
	e := k.m[h]
	if e == nil {
		e = &keyedEntry[T]{v: mk()}
		k.m[h] = e
	}
	e.users++
	k.mu.Unlock()
	return e.v, func() {
		k.mu.Lock()
		if e.users--; e.users == 0 {
			delete(k.m, h)
		}
		k.mu.Unlock()
	}
}

// len is the number of keys held.
func (k *keyed[T]) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.m)
}
