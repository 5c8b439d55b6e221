package gateway

import "net/http"

// headerSlots holds the values of the headers a request sets on its response, so
// setting one costs no allocation: each value goes into the header map as a slice of
// length and capacity 1 over the request's own array. net/http only reads such a
// slice, and a later Add or Set replaces it rather than writing through it.
type headerSlots struct {
	v [12]string
	n int
}

// set sets h[key] to value. key must already be in canonical form (as written in
// this package: "Content-Type", "X-V2bridge-Fidelity"); with no slots (s nil or all
// used) it falls back to h.Set.
func (s *headerSlots) set(h http.Header, key, value string) {
	if s == nil || s.n == len(s.v) {
		h.Set(key, value)
		return
	}
	s.v[s.n] = value
	h[key] = s.v[s.n : s.n+1 : s.n+1]
	s.n++
}

// slotsOf returns the header slots of the request st belongs to (nil: none).
func slotsOf(st *reqState) *headerSlots {
	if st == nil {
		return nil
	}
	return &st.hdr
}
