package graphql

// BreakerOpen reports whether the global circuit breaker is open (calls fail fast) or
// half-open (one probe decides): NerdGraph failing for every tenant, the
// v2bridge_upstream_breaker_open gauge. A tenant's own breaker (one key's outage,
// graphql/breaker.go) does not show here.
func (c *Client) BreakerOpen() bool {
	s := c.breaker
	if s == nil || s.global == nil {
		return false
	}
	b := s.global
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures >= b.threshold
}
