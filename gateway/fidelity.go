package gateway

// Fidelity says how closely a route's answer matches the real REST v2 API. It is sent
// as X-V2bridge-Fidelity and listed in the README.
type Fidelity string

// The fidelity levels.
const (
	// Exact: the answer differs from REST v2 only in values NerdGraph reports
	// differently over time.
	Exact Fidelity = "exact"
	// Approximate: some fields are derived, omitted or synthesised; Note says which.
	Approximate Fidelity = "approximate"
	// Unsupported: NerdGraph has no path; the route answers a v2 error naming the
	// replacement.
	Unsupported Fidelity = "unsupported"
)
