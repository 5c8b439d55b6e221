package graphql

import "sync"

// Retry budgets per tenant: retries multiply the load on a NerdGraph
// that is already failing, and one tenant's failing queries must not spend the retries
// (and NerdGraph's patience) of everyone. Each NerdGraph identity (the SHA-256 of the
// user key) has a token bucket: a retry costs one token, every first attempt earns
// retryEarn tokens back, up to retryBurst. A tenant with no failures holds no bucket: a
// bucket is made (full) by the first retry and dropped once full again.
const (
	retryBurst = 10.0
	retryEarn  = 0.2 // one retry per five calls, sustained
)

type retryBudgets struct {
	mu      sync.Mutex
	tenants map[[32]byte]float64
}

// earn credits a first attempt of tenant id.
func (r *retryBudgets) earn(id [32]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.tenants[id]
	if !ok {
		return
	}
	if t += retryEarn; t >= retryBurst {
		delete(r.tenants, id)
		return
	}
	r.tenants[id] = t
}

// spend takes one retry from tenant id's budget; false when it is used up.
func (r *retryBudgets) spend(id [32]byte) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tenants == nil {
		r.tenants = map[[32]byte]float64{}
	}
	t, ok := r.tenants[id]
	if !ok {
		if len(r.tenants) >= maxTenantBreakers {
			return true // untracked beyond the bound, as without a budget
		}
		t = retryBurst
	}
	if t < 1 {
		return false
	}
	r.tenants[id] = t - 1
	return true
}
