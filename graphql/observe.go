package graphql

// BreakerOpen reports whether the circuit breaker is open (calls fail fast) or
// half-open (one probe decides): for the v2bridge_upstream_breaker_open gauge.
func (c *Client) BreakerOpen() bool {
	b := c.breaker
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures >= b.threshold
}
