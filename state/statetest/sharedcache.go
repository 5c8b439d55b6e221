package statetest

import (
	"context"
	"sync"
	"time"
)

// SharedCache is an in-memory state.SharedCache: the fleet's store of shared entries
// (by cache name and key) and of the verdicts on keys. Tests read and set its fields
// between calls; Err and AuthLeft are what every GetCached answers.
type SharedCache struct {
	mu sync.Mutex
	// Val and TTL are the stored entries, by name + "/" + key.
	Val map[string][]byte
	TTL map[string]time.Duration
	// AuthLeft is how much longer the fleet accepts the caller's key; Err fails gets.
	AuthLeft time.Duration
	Err      error
	// Gets counts GetCached calls; Accepted and Refused are the verdicts heard, by key
	// hash; Unshareable counts values that could not be shared.
	Gets        int
	Accepted    map[string]time.Duration
	Refused     []string
	Unshareable int
}

// NewSharedCache is an empty store accepting every key for a minute.
func NewSharedCache() *SharedCache {
	return &SharedCache{Val: map[string][]byte{}, TTL: map[string]time.Duration{}, Accepted: map[string]time.Duration{}, AuthLeft: time.Minute}
}

// GetCached is the entry name/key, its TTL, the key's acceptance left and Err.
func (m *SharedCache) GetCached(_ context.Context, name, key, _ string) ([]byte, time.Duration, time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Gets++
	return m.Val[name+"/"+key], m.TTL[name+"/"+key], m.AuthLeft, m.Err
}

// SetCached stores value as name/key for ttl.
func (m *SharedCache) SetCached(_ context.Context, name, key string, value []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Val[name+"/"+key], m.TTL[name+"/"+key] = value, ttl
	return nil
}

// KeyAccepted records the fleet's acceptance of keyHash for ttl.
func (m *SharedCache) KeyAccepted(_ context.Context, keyHash string, ttl time.Duration) {
	m.mu.Lock()
	m.Accepted[keyHash] = ttl
	m.mu.Unlock()
}

// KeyRefused records the fleet's refusal of keyHash.
func (m *SharedCache) KeyRefused(_ context.Context, keyHash string) {
	m.mu.Lock()
	m.Refused = append(m.Refused, keyHash)
	m.mu.Unlock()
}

// CacheUnshareable counts a value that could not be shared.
func (m *SharedCache) CacheUnshareable() { m.mu.Lock(); m.Unshareable++; m.mu.Unlock() }
