package fleet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/state"
)

// DefaultTimeout bounds every store call: past it the caller falls back to local state.
const DefaultTimeout = 100 * time.Millisecond

// DefaultKeyPrefix starts every key the gateway stores.
const DefaultKeyPrefix = "v2bridge:"

// probeEvery is how often a down store is probed, and how often the stored write
// counts are reloaded while it is up (a replica that missed a published count catches
// up within it).
const probeEvery = time.Second

// Options configure Open.
type Options struct {
	// URL is redis://[user:password@]host:port[/db] or rediss:// (TLS).
	URL string
	// Username and Password, when set, override the URL's (taken from the environment).
	Username, Password string
	// KeyPrefix starts every key (default DefaultKeyPrefix).
	KeyPrefix string
	// Timeout bounds each call (default DefaultTimeout).
	Timeout time.Duration
	// Cache, when set, keeps the translator's cached answers in the store too
	// (store.shared_cache, cache.go).
	Cache *CacheOptions
	// Log receives one line when the store becomes unreachable and one when it returns.
	Log *zap.Logger
}

// Store is a connection to the shared store. Its methods are safe for concurrent use
// and never block longer than the timeout.
type Store struct {
	rdb     *redis.Client
	prefix  string
	timeout time.Duration
	log     *zap.Logger
	cache   *cacheState // nil: shared cache off

	errs    atomic.Int64
	down    atomic.Bool
	lastErr atomic.Pointer[string]

	mu       sync.Mutex
	pending  map[int64]uint64 // write counts bumped while the store was down
	watchers []func(account int64, count uint64)
	counts   map[int64]uint64 // the highest write count heard per account

	ps     *redis.PubSub // the write-count subscription
	cancel context.CancelFunc
	done   chan struct{}
}

// Open parses opts, loads the fleet's write counts (one call within the timeout: a
// replica that joins a written-to fleet serves its first request knowing the writes)
// and starts the store's background work (the write-count subscription and the
// probe). A store that is down at start is a store that is down: the replica runs on
// local state, and the probe loads the counts once it answers.
func Open(opts Options) (*Store, error) {
	ro, err := redis.ParseURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("store url: %w", err)
	}
	if opts.Username != "" {
		ro.Username = opts.Username
	}
	if opts.Password != "" {
		ro.Password = opts.Password
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = DefaultKeyPrefix
	}
	if opts.Log == nil {
		opts.Log = zap.NewNop()
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = opts.Timeout, opts.Timeout, opts.Timeout
	ro.MaxRetries = -1 // a failed call falls back at once; the probe notices the return
	ro.PoolTimeout = opts.Timeout
	ctx, cancel := context.WithCancel(context.Background())
	s := &Store{rdb: redis.NewClient(ro), prefix: opts.KeyPrefix, timeout: opts.Timeout, log: opts.Log,
		pending: map[int64]uint64{}, cancel: cancel, done: make(chan struct{})}
	if opts.Cache != nil {
		s.cache = newCacheState(*opts.Cache)
	}
	s.ps = s.rdb.Subscribe(ctx, s.key("writes"))
	s.reload(ctx)
	go s.run(ctx)
	return s, nil
}

// Close stops the background work and closes the connections.
func (s *Store) Close() error {
	s.cancel()
	_ = s.ps.Close() // ends a receive in progress
	<-s.done
	return s.rdb.Close()
}

// Errors is the number of failed store calls (v2bridge_store_errors_total).
func (s *Store) Errors() int64 { return s.errs.Load() }

// Status is nil while the store answers, else why it does not (for /readyz?verbose).
func (s *Store) Status() error {
	if !s.down.Load() {
		return nil
	}
	if p := s.lastErr.Load(); p != nil {
		return errors.New(*p)
	}
	return errors.New("unreachable")
}

// usable reports whether a call should be tried: while the store is down, callers use
// local state at once and only the probe talks to it.
func (s *Store) usable() bool { return !s.down.Load() }

func (s *Store) fail(err error) {
	s.errs.Add(1)
	msg := err.Error()
	s.lastErr.Store(&msg)
	if s.down.CompareAndSwap(false, true) {
		s.log.Warn("shared store unreachable: each replica falls back to its own state (rate limits and write retirement per replica) until it returns",
			zap.Error(err))
	}
}

func (s *Store) ctx(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, s.timeout)
}

func (s *Store) key(parts ...string) string { return s.prefix + strings.Join(parts, ":") }

// run keeps the write-count subscription and probes the store while it is down.
func (s *Store) run(ctx context.Context) {
	defer close(s.done)
	ps := s.ps
	go s.probe(ctx)
	for {
		msg, err := ps.ReceiveTimeout(ctx, probeEvery)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.fail(err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(probeEvery / 2):
			}
			continue
		}
		switch m := msg.(type) {
		case *redis.Subscription:
			// Subscribed, or subscribed again after a lost connection: counts published
			// meanwhile were missed, the stored ones are not.
			s.reload(ctx)
		case *redis.Message:
			account, count, ok := parseCount(m.Payload)
			if ok {
				s.notify(account, count)
			}
		}
	}
}

// probe pings a down store every probeEvery and, when it answers, replays the write
// counts bumped meanwhile and reloads the stored ones; while the store is up it
// reloads them every probeEvery (a missed message is caught up within it).
func (s *Store) probe(ctx context.Context) {
	t := time.NewTicker(probeEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if s.down.Load() {
			c, cancel := s.ctx(ctx)
			err := s.rdb.Ping(c).Err()
			cancel()
			if err != nil {
				s.errs.Add(1)
				continue
			}
			s.down.Store(false)
			s.log.Info("shared store reachable again: fleet-wide limits and write retirement resume")
			s.replay(ctx)
		}
		s.reload(ctx)
	}
}

func parseCount(payload string) (int64, uint64, bool) {
	a, c, ok := strings.Cut(payload, "=")
	if !ok {
		return 0, 0, false
	}
	account, err1 := strconv.ParseInt(a, 10, 64)
	count, err2 := strconv.ParseUint(c, 10, 64)
	return account, count, err1 == nil && err2 == nil
}

// Done is closed when the store is closed (background work tied to it ends).
func (s *Store) Done() <-chan struct{} { return s.done }

// RouteClientLog sends go-redis's own messages (a failed dial, repeated while the store
// is down; plain text on stderr by default) through log at debug, so a process whose
// log is JSON lines keeps it so (Store's one line per outage is the warning).
// go-redis (v9.23) has no per-client logger, only redis.SetLogger, which is
// process-wide: so Open does not call it (two Stores in one process, as in the tests,
// would race over it), and a program's main calls RouteClientLog once, as it sets its
// own process-wide things (cmd/v2bridge: storeConfig.open, once per serve).
func RouteClientLog(log *zap.Logger) {
	if log != nil {
		redis.SetLogger(redisLog{log})
	}
}

// redisLog is go-redis's logger on zap, at debug.
type redisLog struct{ log *zap.Logger }

func (l redisLog) Printf(_ context.Context, format string, v ...any) {
	l.log.Debug("store client: " + fmt.Sprintf(format, v...))
}

// The interfaces of package state the store implements: the translator's ledgers and
// shared cache, the edge's rate limit and health, and the migration tooling's usage rows.
var _ interface {
	state.SharedWrites
	state.SharedAttempts
	state.SharedDeployments
	state.SharedCache
	state.SharedChunks
	state.SharedLimits
	state.SharedUsage
	state.StoreHealth
} = (*Store)(nil)
