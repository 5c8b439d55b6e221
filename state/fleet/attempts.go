package fleet

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Write attempt records (state/attemptsfleet.go): opaque JSON under the SHA-256 of
// the record's key, expiring with the write attempt window.

// LoadAttempt returns the record stored under id (nil, nil: none).
func (s *Store) LoadAttempt(ctx context.Context, id string) ([]byte, error) {
	if !s.usable() {
		return nil, s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	b, err := s.rdb.Get(c, s.key("attempt", id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		s.fail(err)
		return nil, err
	}
	return b, nil
}

// SaveAttempt stores rec under id for ttl.
func (s *Store) SaveAttempt(ctx context.Context, id string, rec []byte, ttl time.Duration) error {
	if !s.usable() {
		return s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := s.rdb.Set(c, s.key("attempt", id), rec, ttl).Err(); err != nil {
		s.fail(err)
		return err
	}
	return nil
}

// DeleteAttempt drops id's record.
func (s *Store) DeleteAttempt(ctx context.Context, id string) error {
	if !s.usable() {
		return s.Status()
	}
	c, cancel := s.ctx(ctx)
	defer cancel()
	if err := s.rdb.Del(c, s.key("attempt", id)).Err(); err != nil {
		s.fail(err)
		return err
	}
	return nil
}
