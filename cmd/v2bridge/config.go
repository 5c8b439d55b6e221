package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"
	"gopkg.in/yaml.v3"

	"github.com/v2bridge/v2bridge/gateway"
	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/migrate"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/state/fleet"
	"github.com/v2bridge/v2bridge/translate"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// fileConfig is the YAML configuration (configs/v2bridge.yaml documents every key).
type fileConfig struct {
	Listen                   string            `yaml:"listen"`
	Upstream                 string            `yaml:"upstream"`
	PublicURL                string            `yaml:"public_url"`
	DefaultAccountID         int64             `yaml:"default_account_id"`
	RequestTimeout           time.Duration     `yaml:"request_timeout"`
	UpstreamTimeout          time.Duration     `yaml:"upstream_timeout"`
	UpstreamSlotWait         time.Duration     `yaml:"upstream_slot_wait"`
	UpstreamBackgroundSlots  int               `yaml:"upstream_background_slots"`
	LogLevel                 string            `yaml:"log_level"`
	LogFormat                string            `yaml:"log_format"`
	RejectUnmappedLegacyKeys bool              `yaml:"reject_unmapped_legacy_keys"`
	RateLimitPerMinute       int               `yaml:"rate_limit_per_minute"`
	UseCreateDeployment      bool              `yaml:"use_create_deployment"`
	RESTUpstream             string            `yaml:"rest_upstream"`
	Routes                   map[string]string `yaml:"routes"`
	UnmatchedPassthrough     bool              `yaml:"unmatched_passthrough"`
	RetainedAlerts           string            `yaml:"retained_alerts"`
	MaxInFlight              int               `yaml:"max_in_flight"`
	MaxUnauthInFlight        int               `yaml:"max_unauthenticated_in_flight"`
	BodyMinRate              int64             `yaml:"body_min_rate"`
	BodyGrace                time.Duration     `yaml:"body_grace"`
	TrustedProxies           []string          `yaml:"trusted_proxies"`
	AnswerMemory             int64             `yaml:"answer_memory"`
	BrowserLoader            string            `yaml:"browser_loader"`
	NameFilter               string            `yaml:"name_filter"`
	MetricRaw                string            `yaml:"metric_raw"`
	QueueTime                string            `yaml:"queue_time"`
	SummaryTransactions      string            `yaml:"summary_transactions"`
	Compare                  compareConfig     `yaml:"compare"`
	Report                   reportConfig      `yaml:"report"`
	Cache                    cacheConfig       `yaml:"cache"`
	MetricNamesWindow        time.Duration     `yaml:"metric_names_window"`
	WriteAttemptWindow       time.Duration     `yaml:"write_attempt_window"`
	PprofListen              string            `yaml:"pprof_listen"`
	AdminListen              string            `yaml:"admin_listen"`
	ShutdownDelay            time.Duration     `yaml:"shutdown_delay"`
	RejectedKeyTTL           time.Duration     `yaml:"rejected_key_ttl"`
	AuthFailuresPerMinute    int               `yaml:"auth_failures_per_minute"`
	TLSCertFile              string            `yaml:"tls_cert_file"`
	TLSKeyFile               string            `yaml:"tls_key_file"`
	Keys                     []keyConfig       `yaml:"keys"`
	Store                    storeConfig       `yaml:"store"`
}

// storeConfig is fleet mode's shared store (state/fleet): empty url, every
// replica on its own.
type storeConfig struct {
	// URL is redis://host:port[/db] or rediss:// (TLS); Redis 6+ or Valkey. It must not
	// hold a password (config check prints it): use PasswordEnv.
	URL string `yaml:"url"`
	// UsernameEnv and PasswordEnv name environment variables holding the ACL user and
	// its password.
	UsernameEnv string `yaml:"username_env"`
	PasswordEnv string `yaml:"password_env"`
	// KeyPrefix starts every key the gateway stores.
	KeyPrefix string `yaml:"key_prefix"`
	// Timeout bounds each store call; past it the replica uses its own state.
	Timeout time.Duration `yaml:"timeout"`
	// SharedCache keeps cached answers (application shows, metric data, account lists)
	// in the store too, within the two byte bounds (state/fleet/cache.go).
	SharedCache           bool  `yaml:"shared_cache"`
	SharedCacheEntryBytes int64 `yaml:"shared_cache_entry_bytes"`
	SharedCacheMaxBytes   int64 `yaml:"shared_cache_max_bytes"`
}

// compareConfig configures routes in compare mode.
type compareConfig struct {
	Primary   string                        `yaml:"primary"`
	Timeout   time.Duration                 `yaml:"timeout"`
	Tolerance float64                       `yaml:"tolerance"`
	Ignore    []string                      `yaml:"ignore"`
	Routes    map[string]compareRouteConfig `yaml:"routes"`
	// Fallback answers from the secondary when the primary fails (off by default).
	Fallback bool `yaml:"fallback"`
}

// compareRouteConfig overrides the comparison of one route.
type compareRouteConfig struct {
	Tolerance float64  `yaml:"tolerance"`
	Ignore    []string `yaml:"ignore"`
	// Fallback overrides compare.fallback for the route when set.
	Fallback *bool `yaml:"fallback"`
}

// sharedWindow is the longest TTL an entry of the shared cache can have (the store's
// accounting window, fleet.CacheOptions.Window): the TTLs of the caches that have a
// codec in translate.go's sharedCodecs (shows, metric data, accounts, cursors, and the name
// pass's matches, which live for list_ttl).
func (c cacheConfig) sharedWindow() time.Duration {
	return max(c.EntityTTL, c.MetricDataTTL, c.AccountTTL, c.CursorTTL, c.ListTTL)
}

// cacheConfig sizes the caches (every entry is keyed by the caller's identity).
type cacheConfig struct {
	CursorTTL  time.Duration `yaml:"cursor_ttl"`
	ListTTL    time.Duration `yaml:"list_ttl"`
	AccountTTL time.Duration `yaml:"account_ttl"`
	// MetricDataTTL and EntityTTL may be 0: that cache is off.
	MetricDataTTL time.Duration `yaml:"metric_data_ttl"`
	EntityTTL     time.Duration `yaml:"entity_ttl"`
	MaxEntries    int           `yaml:"max_entries"`
	// AuthTTL: cached answers go only to keys NerdGraph accepted within it.
	AuthTTL time.Duration `yaml:"auth_ttl"`
	// MaxBytes bounds the estimated bytes of each cache.
	MaxBytes int64 `yaml:"max_bytes"`
	// The accounts' name indexes (translate/nameindex/index.go): read again in the background
	// past NameIndexRefresh, no longer served past NameIndexMaxStale, kept only for
	// accounts of at most NameIndexMaxApps applications, at most NameIndexes of them.
	NameIndexRefresh  time.Duration `yaml:"name_index_refresh"`
	NameIndexMaxStale time.Duration `yaml:"name_index_max_stale"`
	NameIndexMaxApps  int           `yaml:"name_index_max_apps"`
	NameIndexes       int           `yaml:"name_indexes"`
}

// reportConfig configures the usage report.
type reportConfig struct {
	AdminTokenEnv string `yaml:"admin_token_env"`
	StateFile     string `yaml:"state_file"`
	PrometheusURL string `yaml:"prometheus_url"`
	MaxCallers    int    `yaml:"max_callers"`
	MaxAgents     int    `yaml:"max_agents"`
	// VerifyFile is the JSON report of the last `v2bridge verify` run, shown per route.
	VerifyFile string `yaml:"verify_file"`
}

// keyConfig maps a legacy key, by its SHA-256, to a user key held outside the file.
type keyConfig struct {
	SHA256      string `yaml:"sha256"`
	UserKeyEnv  string `yaml:"user_key_env"`
	UserKeyFile string `yaml:"user_key_file"`
	AccountID   int64  `yaml:"account_id"`
}

func defaultConfig() fileConfig {
	return fileConfig{
		Listen:                  ":8080",
		Upstream:                "us",
		RequestTimeout:          60 * time.Second,
		UpstreamTimeout:         30 * time.Second,
		UpstreamSlotWait:        ng.DefaultSlotWait,
		UpstreamBackgroundSlots: ng.DefaultBackgroundSlots,
		LogLevel:                "info",
		LogFormat:               "json",

		RateLimitPerMinute:  1000,
		RESTUpstream:        "us",
		MaxInFlight:         1000,
		MaxUnauthInFlight:   64,
		BodyMinRate:         1024,
		BodyGrace:           10 * time.Second,
		TrustedProxies:      []string{},
		BrowserLoader:       "LITE",
		NameFilter:          "read",
		MetricRaw:           "values",
		QueueTime:           "published",
		SummaryTransactions: "web",
		Compare:             compareConfig{Primary: "rest", Timeout: 5 * time.Second, Tolerance: 0.05},
		Cache: cacheConfig{CursorTTL: 5 * time.Minute, ListTTL: time.Minute, AccountTTL: 10 * time.Minute,
			MetricDataTTL: translate.MetricDataTTL, EntityTTL: translate.EntityTTL, MaxEntries: 10000, AuthTTL: gateway.AuthTTL,
			MaxBytes: state.DefaultCacheMaxBytes, NameIndexRefresh: translate.DefaultNameIndexRefresh,
			NameIndexMaxStale: translate.DefaultNameIndexMaxStale, NameIndexMaxApps: translate.DefaultNameIndexMaxApps,
			NameIndexes: translate.DefaultNameIndexes},
		MetricNamesWindow: 24 * time.Hour,

		Report:                reportConfig{MaxCallers: migrate.DefaultReportMaxCallers, MaxAgents: migrate.DefaultReportMaxAgents},
		RejectedKeyTTL:        gateway.DefaultRejectedKeyTTL,
		AuthFailuresPerMinute: gateway.DefaultAuthFailuresPerMinute,
		WriteAttemptWindow:    state.DefaultWriteAttemptWindow,
		Store: storeConfig{KeyPrefix: fleet.DefaultKeyPrefix, Timeout: fleet.DefaultTimeout,
			SharedCacheEntryBytes: fleet.DefaultCacheEntryBytes, SharedCacheMaxBytes: fleet.DefaultCacheBytes},
	}
}

// loadConfig reads path over the defaults. Unknown keys and values of the wrong type (a
// *keyProblemsError; a *yaml.TypeError only for a type keyProblems does not know) are
// errors listing them all, the rest of the file read; values are checked by validate.
func loadConfig(path string) (fileConfig, error) {
	cfg := defaultConfig()
	if path == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	if doc.Kind == 0 { // an empty file
		return cfg, nil
	}
	unknown := keyProblems(&doc)
	if err := doc.Decode(&cfg); err != nil {
		var mistyped *yaml.TypeError
		if unknown == nil || !errors.As(err, &mistyped) {
			return cfg, fmt.Errorf("config %s: %w", path, errors.Join(unknown, err))
		}
	}
	if unknown != nil {
		return cfg, fmt.Errorf("config %s: %w", path, unknown)
	}
	return cfg, nil
}

// validate returns every problem at once, each naming its key path.
func (c fileConfig) validate(getenv func(string) string) error {
	var errs []error
	if err := checkListen(c.Listen); err != nil {
		errs = append(errs, fmt.Errorf("listen: %w", err))
	}
	if c.PprofListen != "" {
		if err := checkListen(c.PprofListen); err != nil {
			errs = append(errs, fmt.Errorf("pprof_listen: %w", err))
		}
	}
	if _, err := ng.ResolveEndpoint(c.Upstream); err != nil {
		errs = append(errs, fmt.Errorf("upstream: %w (such as https://api.newrelic.com/graphql)", err))
	}
	for _, u := range []struct{ key, value string }{{"public_url", c.PublicURL}, {"report.prometheus_url", c.Report.PrometheusURL}} {
		if err := checkHTTPURL(u.value); u.value != "" && err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u.key, err))
		}
	}
	if c.DefaultAccountID < 0 {
		errs = append(errs, errors.New("default_account_id: must not be negative"))
	}
	if c.RequestTimeout <= 0 {
		errs = append(errs, errors.New("request_timeout: must be positive"))
	}
	if c.UpstreamTimeout <= 0 {
		errs = append(errs, errors.New("upstream_timeout: must be positive"))
	}
	if c.RequestTimeout > 0 && c.UpstreamTimeout > c.RequestTimeout {
		errs = append(errs, fmt.Errorf("upstream_timeout: %s is longer than request_timeout %s, so a NerdGraph call could never time out on its own; make it shorter",
			c.UpstreamTimeout, c.RequestTimeout))
	}
	if (c.TLSCertFile == "") != (c.TLSKeyFile == "") {
		errs = append(errs, errors.New("tls_cert_file, tls_key_file: set both or neither"))
	}
	if _, err := c.restUpstream(); err != nil {
		errs = append(errs, err)
	}
	if _, err := c.modes(); err != nil {
		errs = append(errs, err)
	}
	if _, err := c.retainedAlerts(); err != nil {
		errs = append(errs, err)
	}
	if c.Compare.Primary != "rest" && c.Compare.Primary != "graph" {
		errs = append(errs, fmt.Errorf("compare.primary: %q is not rest or graph", c.Compare.Primary))
	}
	if c.Compare.Timeout <= 0 {
		errs = append(errs, errors.New("compare.timeout: must be positive"))
	}
	if c.Compare.Tolerance < 0 || c.Compare.Tolerance >= 1 {
		errs = append(errs, errors.New("compare.tolerance: must be in [0, 1)"))
	}
	for name, rc := range c.Compare.Routes {
		if rc.Tolerance < 0 || rc.Tolerance >= 1 {
			errs = append(errs, fmt.Errorf("compare.routes.%s.tolerance: must be in [0, 1)", name))
		}
	}
	if c.Report.AdminTokenEnv != "" && strings.TrimSpace(getenv(c.Report.AdminTokenEnv)) == "" {
		errs = append(errs, fmt.Errorf("report.admin_token_env: environment variable %s is not set", c.Report.AdminTokenEnv))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"cache.cursor_ttl", c.Cache.CursorTTL}, {"cache.list_ttl", c.Cache.ListTTL}, {"cache.account_ttl", c.Cache.AccountTTL},
		{"metric_names_window", c.MetricNamesWindow}, {"write_attempt_window", c.WriteAttemptWindow}} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s: must be positive", d.name))
		}
	}
	if c.Cache.MetricDataTTL < 0 {
		errs = append(errs, errors.New("cache.metric_data_ttl: must not be negative (0 switches the cache off)"))
	}
	if c.Cache.EntityTTL < 0 {
		errs = append(errs, errors.New("cache.entity_ttl: must not be negative (0 switches the cache off)"))
	}
	if c.Cache.MaxEntries <= 0 {
		errs = append(errs, errors.New("cache.max_entries: must be positive"))
	}
	switch c.BrowserLoader {
	case "LITE", "SPA", "PRO":
	default:
		errs = append(errs, fmt.Errorf("browser_loader: %q is not LITE, SPA or PRO", c.BrowserLoader))
	}
	switch c.NameFilter {
	case "read", "like":
	default:
		errs = append(errs, fmt.Errorf("name_filter: %q is not read or like", c.NameFilter))
	}
	for _, k := range []struct{ key, val, a, b string }{
		{"metric_raw", c.MetricRaw, "values", "fields"},
		{"queue_time", c.QueueTime, "published", "per_view"},
		{"summary_transactions", c.SummaryTransactions, "web", "all"},
	} {
		if k.val != k.a && k.val != k.b {
			errs = append(errs, fmt.Errorf("%s: %q is not %s or %s", k.key, k.val, k.a, k.b))
		}
	}
	if c.Cache.MaxBytes <= 0 {
		errs = append(errs, errors.New("cache.max_bytes: must be positive"))
	}
	if c.Cache.AuthTTL <= 0 {
		errs = append(errs, errors.New("cache.auth_ttl: must be positive"))
	}
	if c.Cache.NameIndexRefresh <= 0 || c.Cache.NameIndexMaxStale < c.Cache.NameIndexRefresh {
		errs = append(errs, errors.New("cache.name_index_refresh, cache.name_index_max_stale: must be positive, the refresh age no longer than the max staleness"))
	}
	if c.Cache.NameIndexMaxApps <= 0 || c.Cache.NameIndexes <= 0 {
		errs = append(errs, errors.New("cache.name_index_max_apps, cache.name_indexes: must be positive"))
	}
	if c.Report.MaxCallers <= 0 || c.Report.MaxAgents <= 0 {
		errs = append(errs, errors.New("report.max_callers, report.max_agents: must be positive"))
	}
	if c.RejectedKeyTTL < 0 {
		errs = append(errs, errors.New("rejected_key_ttl: must not be negative (0 disables the cache of refused keys)"))
	}
	if c.AuthFailuresPerMinute < 0 {
		errs = append(errs, errors.New("auth_failures_per_minute: must not be negative (0 disables the limit)"))
	}
	if c.ShutdownDelay < 0 {
		errs = append(errs, errors.New("shutdown_delay: must not be negative"))
	}
	if c.MaxInFlight <= 0 {
		errs = append(errs, errors.New("max_in_flight: must be positive"))
	}
	if c.MaxUnauthInFlight <= 0 {
		errs = append(errs, errors.New("max_unauthenticated_in_flight: must be positive"))
	}
	if c.BodyGrace <= 0 {
		errs = append(errs, errors.New("body_grace: must be positive"))
	}
	if _, err := trustedProxies(c.TrustedProxies); err != nil {
		errs = append(errs, err)
	}
	if c.UpstreamSlotWait <= 0 {
		errs = append(errs, errors.New("upstream_slot_wait: must be positive"))
	}
	if n := c.UpstreamBackgroundSlots; n <= 0 || n > 25 {
		errs = append(errs, fmt.Errorf("upstream_background_slots: %d is not within 1..25 (NerdGraph's concurrent requests a user)", n))
	}
	if m := c.AnswerMemory; m != 0 && m != -1 && m < 2*ng.LargeAnswer {
		errs = append(errs, fmt.Errorf("answer_memory: %d bytes is less than two large answers (%d); 0 is the default, -1 no bound", m, 2*ng.LargeAnswer))
	}
	if c.RateLimitPerMinute < 0 {
		errs = append(errs, errors.New("rate_limit_per_minute: must not be negative (0 disables the limit)"))
	}
	if c.LogFormat != "json" && c.LogFormat != "console" {
		errs = append(errs, fmt.Errorf("log_format: %q is not json or console", c.LogFormat))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log_level: %q is not debug, info, warn or error", c.LogLevel))
	}
	if _, err := c.keyMap(getenv); err != nil {
		errs = append(errs, err)
	}
	if err := c.Store.check(getenv); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkListen accepts what net.Listen("tcp", addr) accepts without a lookup: host:port
// with an empty host, an IP or a name, and a port number (0-65535) or a service name.
func checkListen(addr string) error {
	if addr == "" {
		return errors.New("must not be empty")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port (e.g. :8080 or 127.0.0.1:8080): %w", addr, err)
	}
	if strings.ContainsAny(host, " /") {
		return fmt.Errorf("%q: host %q is not an address or a name", addr, host)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("%q: port %q is not a number from 0 to 65535: %w", addr, port, err)
	}
	return nil
}

// keyMap resolves the keys section, reading each user key from its environment
// variable or file.
func (c fileConfig) keyMap(getenv func(string) string) (gateway.KeyMap, error) {
	m := gateway.KeyMap{}
	var errs []error
	for i, k := range c.Keys {
		at := fmt.Sprintf("keys[%d]", i)
		h := strings.ToLower(k.SHA256)
		if b, err := hex.DecodeString(h); err != nil || len(b) != 32 {
			errs = append(errs, fmt.Errorf("%s.sha256: want 64 hex characters (v2bridge hash-key prints it)", at))
		}
		if _, dup := m[h]; dup {
			errs = append(errs, fmt.Errorf("%s.sha256: mapped twice", at))
		}
		if k.AccountID < 0 {
			errs = append(errs, fmt.Errorf("%s.account_id: must not be negative", at))
		}
		var userKey string
		switch {
		case k.UserKeyEnv != "" && k.UserKeyFile != "":
			errs = append(errs, fmt.Errorf("%s: set user_key_env or user_key_file, not both", at))
			continue
		case k.UserKeyEnv != "":
			if userKey = strings.TrimSpace(getenv(k.UserKeyEnv)); userKey == "" {
				errs = append(errs, fmt.Errorf("%s.user_key_env: environment variable %s is not set", at, k.UserKeyEnv))
			}
		case k.UserKeyFile != "":
			b, err := os.ReadFile(k.UserKeyFile)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s.user_key_file: %w", at, err))
			}
			if userKey = strings.TrimSpace(string(b)); err == nil && userKey == "" {
				errs = append(errs, fmt.Errorf("%s.user_key_file: %s is empty", at, k.UserKeyFile))
			}
		default:
			errs = append(errs, fmt.Errorf("%s: set user_key_env or user_key_file", at))
		}
		m[h] = gateway.MappedKey{UserKey: userKey, AccountID: k.AccountID}
	}
	return m, errors.Join(errs...)
}

// redacted is the effective configuration as `config check` prints it: user keys are
// never part of it (only where they come from).
func (c fileConfig) redacted() string {
	b, err := yaml.Marshal(c)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// restUpstream resolves rest_upstream: us, eu (either case, as upstream) or a URL
// ending in /v2.
func (c fileConfig) restUpstream() (string, error) {
	switch strings.ToLower(c.RESTUpstream) {
	case "", "us":
		return gateway.RESTEndpointUS, nil
	case "eu":
		return gateway.RESTEndpointEU, nil
	}
	if err := checkHTTPURL(c.RESTUpstream); err != nil {
		return "", fmt.Errorf("rest_upstream: not us or eu, and %w", err)
	}
	return strings.TrimSuffix(c.RESTUpstream, "/"), nil
}

// checkHTTPURL accepts an absolute http(s) URL with a host and no query or fragment,
// the form every URL key of the configuration takes.
func checkHTTPURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a URL: %w", s, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q has no http:// or https:// scheme; write it whole, such as https://%s", s, strings.TrimPrefix(strings.TrimPrefix(s, u.Scheme+":"), "//"))
	case u.Host == "":
		return fmt.Errorf("%q names no host; write it whole, such as https://v2bridge.example.com", s)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%q has a query or fragment; give the base URL alone", s)
	}
	return nil
}

// modes checks the routes table: every key a route name, every value a mode.
func (c fileConfig) modes() (map[string]gateway.Mode, error) {
	known := map[string]bool{}
	for _, r := range gateway.Routes() {
		known[r.Name] = true
	}
	out := map[string]gateway.Mode{}
	var errs []error
	for name, mode := range c.Routes {
		if !known[name] {
			errs = append(errs, fmt.Errorf("routes.%s: no route of that name (see the README's route table)", name))
		}
		switch gateway.Mode(mode) {
		case gateway.ModeTranslate, gateway.ModePassthrough, gateway.ModeCompare:
			out[name] = gateway.Mode(mode)
		default:
			errs = append(errs, fmt.Errorf("routes.%s: mode %q is not translate, passthrough or compare", name, mode))
		}
	}
	return out, errors.Join(errs...)
}

// retainedAlerts resolves retained_alerts: passthrough or translate; empty means
// passthrough when rest_upstream is set (the shipped configuration sets it to us), as
// New Relic keeps these namespaces on the REST API.
func (c fileConfig) retainedAlerts() (gateway.Mode, error) {
	switch c.RetainedAlerts {
	case "":
		if c.RESTUpstream != "" {
			return gateway.ModePassthrough, nil
		}
		return gateway.ModeTranslate, nil
	case string(gateway.ModePassthrough), string(gateway.ModeTranslate):
		return gateway.Mode(c.RetainedAlerts), nil
	}
	return "", fmt.Errorf("retained_alerts: %q is not passthrough or translate", c.RetainedAlerts)
}

// check validates the store keys: a redis:// or rediss:// URL without a password, a
// positive timeout, and the named environment variables set.
func (s storeConfig) check(getenv func(string) string) error {
	var errs []error
	if s.Timeout <= 0 {
		errs = append(errs, errors.New("store.timeout: must be positive"))
	}
	if s.SharedCache {
		if s.URL == "" {
			errs = append(errs, errors.New("store.shared_cache: needs store.url"))
		}
		if s.SharedCacheEntryBytes <= 0 || s.SharedCacheMaxBytes <= 0 {
			errs = append(errs, errors.New("store.shared_cache_entry_bytes and store.shared_cache_max_bytes: must be positive"))
		} else if s.SharedCacheEntryBytes > s.SharedCacheMaxBytes/2 {
			errs = append(errs, fmt.Errorf("store.shared_cache_entry_bytes: %d is more than half of store.shared_cache_max_bytes (%d): no entry could be written",
				s.SharedCacheEntryBytes, s.SharedCacheMaxBytes))
		}
	}
	if s.URL == "" {
		return errors.Join(errs...)
	}
	u, err := url.Parse(s.URL)
	switch {
	case err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "":
		errs = append(errs, fmt.Errorf("store.url: %q is not a redis:// or rediss:// URL with a host, such as redis://redis.internal:6379", s.URL))
	case u.User != nil:
		if _, has := u.User.Password(); has {
			errs = append(errs, errors.New("store.url: holds a password; put it in the environment and name the variable in store.password_env"))
		}
	}
	for _, e := range []struct{ key, name string }{{"store.username_env", s.UsernameEnv}, {"store.password_env", s.PasswordEnv}} {
		if e.name != "" && getenv(e.name) == "" {
			errs = append(errs, fmt.Errorf("%s: environment variable %s is not set", e.key, e.name))
		}
	}
	return errors.Join(errs...)
}

// open connects to the configured store (nil without store.url); window is the longest
// TTL of a shared cache entry (the shared cache's accounting window).
func (s storeConfig) open(getenv func(string) string, log *zap.Logger, window time.Duration) (*fleet.Store, error) {
	if s.URL == "" {
		return nil, nil
	}
	o := fleet.Options{URL: s.URL, KeyPrefix: s.KeyPrefix, Timeout: s.Timeout, Log: log}
	if s.SharedCache {
		o.Cache = &fleet.CacheOptions{MaxEntryBytes: s.SharedCacheEntryBytes, MaxBytes: s.SharedCacheMaxBytes, Window: window}
	}
	if s.UsernameEnv != "" {
		o.Username = getenv(s.UsernameEnv)
	}
	if s.PasswordEnv != "" {
		o.Password = getenv(s.PasswordEnv)
	}
	fleet.RouteClientLog(log) // go-redis's log is process-wide: set here, once per serve
	st, err := fleet.Open(o)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if u, err := url.Parse(s.URL); err == nil {
		log.Info("fleet mode: rate limits, NerdGraph leases, write retirement, write attempts and report rows shared",
			zap.String("store", u.Scheme+"://"+u.Host), zap.String("key_prefix", s.KeyPrefix), zap.Bool("shared_cache", s.SharedCache))
	}
	return st, nil
}

// upstreamOptions are the NerdGraph client's limits as configured (upstream_timeout,
// upstream_slot_wait, upstream_background_slots, answer_memory); newGateway adds the
// hooks.
func (c *fileConfig) upstreamOptions() ng.Options {
	return ng.Options{Timeout: c.UpstreamTimeout, SlotWait: c.UpstreamSlotWait, BackgroundSlots: c.UpstreamBackgroundSlots,
		AnswerMemory: c.AnswerMemory}
}

// trustedProxies reads trusted_proxies: addresses or CIDR prefixes of the proxies whose
// X-Forwarded-For is believed.
func trustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("trusted_proxies: %q is neither an address nor a CIDR prefix", s)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, unmapPrefix(p.Masked()))
	}
	return out, nil
}

// metricChoices are the configuration's readings of metric data (metric_raw,
// queue_time) and of application summaries (summary_transactions).
func (c *fileConfig) metricChoices() (metricdata.Choices, bool) {
	return metricdata.Choices{RawFields: c.MetricRaw == "fields", QueuePerView: c.QueueTime == "per_view"},
		c.SummaryTransactions == "all"
}
