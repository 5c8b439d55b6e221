package graphql

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/singleflight"
)

// The NerdGraph endpoints of New Relic's regions.
const (
	EndpointUS = "https://api.newrelic.com/graphql"
	EndpointEU = "https://api.eu.newrelic.com/graphql"
)

// ResolveEndpoint turns an --upstream value ("us", "eu" or an http(s) URL) into the
// NerdGraph URL.
func ResolveEndpoint(upstream string) (string, error) {
	switch upstream {
	case "", "us", "US":
		return EndpointUS, nil
	case "eu", "EU":
		return EndpointEU, nil
	}
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("upstream %q: want us, eu or an http(s) URL", upstream)
	}
	return u.String(), nil
}

// Options tune a Client; the zero value of each field means its default.
type Options struct {
	// Timeout bounds one NerdGraph call (default 30s); a shorter deadline on the
	// caller's context wins.
	Timeout time.Duration
	// UserAgent is sent with every call (default "v2bridge").
	UserAgent string
	// HTTPClient replaces the default client (one tuned transport shared by all calls).
	HTTPClient *http.Client
	// MaxResponseBytes bounds a NerdGraph answer (default 64 MiB).
	MaxResponseBytes int64
	// MaxConcurrentPerKey bounds the NerdGraph requests in flight for one user key
	// (NerdGraph guarantees 25 concurrent requests per user; default 25). A call waits
	// for a slot at most SlotWait (slots.go).
	MaxConcurrentPerKey int
	// BackgroundSlots is the most of a key's slots its background work holds
	// (WithBackground; default DefaultBackgroundSlots).
	BackgroundSlots int
	// SlotWait bounds a call's wait for a slot and lease, apart from Timeout (default
	// DefaultSlotWait); a call that waited longer fails with KindOverloaded.
	SlotWait time.Duration
	// Leases, when set, bounds MaxConcurrentPerKey fleet-wide too (leases.go).
	Leases Leases
	// AnswerMemory bounds the bytes of large answers (LargeAnswer and more) decoded and
	// answered at once (gate.go; default DefaultAnswerMemoryPerCPU per CPU; negative:
	// no bound). One key holds at most half of it; a call waits for room until its
	// context ends.
	AnswerMemory int64
	// ObserveAnswerWait, when set, is told how long each large answer that had to wait
	// for AnswerMemory waited (the wait before a failure too) — for metrics.
	ObserveAnswerWait func(time.Duration)
	// MaxAttempts bounds the tries of one query (default 3; 1 disables retries).
	// Queries are retried on rate limits, NerdGraph timeouts and server or transport
	// failures, with jittered exponential backoff that honours Retry-After and never
	// outlasts the caller's deadline. Mutations are retried only when the connection was
	// refused before anything was sent.
	MaxAttempts int
	// Backoff is the first retry's base delay (default 200ms).
	Backoff time.Duration
	// BreakerThreshold consecutive upstream failures open the circuit breaker (default
	// 10; negative disables it); while open, calls fail fast for BreakerCooldown
	// (default 10s), then one probe decides.
	BreakerThreshold int
	BreakerCooldown  time.Duration
	// Observe, when set, is told of every call: operation name, latency, and the
	// error (nil on success) — for metrics.
	Observe func(op string, d time.Duration, err error)
	// TracerProvider, when set, traces every operation (tracing.go): a client span per
	// call and per HTTP round trip, with the W3C traceparent sent to NerdGraph. Nil:
	// tracing off, at no cost.
	TracerProvider trace.TracerProvider
}

// Client sends genqlient operations to NerdGraph. It implements genqlient's
// graphql.Client; the caller's key travels on the context (WithAPIKey) and every call is
// counted on the context's Calls.
type Client struct {
	endpoint string
	opts     Options
	bufs     sync.Pool
	bodies   sync.Pool // *[]byte: answer bodies, reused once decoded (answer.release)
	docs     documents // encode.go: each operation document's JSON string, encoded once
	flight   singleflight.Group
	slots    keySlots
	breaker  *breakers
	retries  retryBudgets // retrybudget.go
	gate     *answerGate  // gate.go; nil: no bound
	hdr      struct{ json, userAgent []string }
	tracer   trace.Tracer // nil: tracing off
}

var _ gql.Client = (*Client)(nil)

// NewClient returns a client for the NerdGraph endpoint (see ResolveEndpoint).
func NewClient(endpoint string, opts Options) *Client {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "v2bridge"
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 200 * time.Millisecond
	}
	if opts.BreakerThreshold == 0 {
		opts.BreakerThreshold = 10
	}
	if opts.BreakerCooldown <= 0 {
		opts.BreakerCooldown = 10 * time.Second
	}
	if opts.MaxConcurrentPerKey <= 0 {
		opts.MaxConcurrentPerKey = 25
	}
	if opts.BackgroundSlots <= 0 {
		opts.BackgroundSlots = DefaultBackgroundSlots
	}
	if opts.SlotWait <= 0 {
		opts.SlotWait = DefaultSlotWait
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = 64 << 20
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Transport: NewTransport()}
	}
	if opts.TracerProvider != nil {
		opts.HTTPClient = tracedHTTPClient(opts.HTTPClient, opts.TracerProvider)
	}
	c := &Client{endpoint: endpoint, opts: opts, bufs: sync.Pool{New: func() any { return new(bytes.Buffer) }},
		gate: newAnswerGate(opts.AnswerMemory, opts.ObserveAnswerWait)}
	if opts.TracerProvider != nil {
		c.tracer = opts.TracerProvider.Tracer(tracerName)
	}
	c.hdr.json, c.hdr.userAgent = []string{"application/json"}, []string{opts.UserAgent}
	if opts.BreakerThreshold > 0 {
		c.breaker = newBreakers(opts.BreakerThreshold, opts.BreakerCooldown, time.Now)
	}
	return c
}

// newDialer connects to NerdGraph: a connect that hangs fails after 5 s (not the
// system's minutes), and idle connections are probed every 30 s.
func newDialer() *net.Dialer {
	return &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
}

// NewTransport is the HTTP transport for NerdGraph: keep-alive connections sized for a
// busy gateway and HTTP/2 when the server offers it.
func NewTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           newDialer().DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   128,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// Endpoint is the NerdGraph URL this client calls.
func (c *Client) Endpoint() string { return c.endpoint }

type wireResponse struct {
	Data   any            `json:"data"`
	Errors []GraphQLError `json:"errors"`
}

// MakeRequest sends one operation and decodes its data into resp.Data. GraphQL errors
// (also on HTTP 200) become an *Error; the data of a partial answer is still decoded.
func (c *Client) MakeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) (err error) {
	CallsFrom(ctx).noteOperation(req.OpName)
	if c.opts.Observe != nil {
		start := time.Now()
		defer func() { c.opts.Observe(req.OpName, time.Since(start), err) }()
	}
	// The request's deadline (Calls.SetDeadline) is not armed on ctx here: each attempt
	// arms one timer for whichever comes first, it or the call's Timeout (fetchHTTP), and
	// the waits between attempts and for the answer gate read it themselves.
	var ot *opTrace
	if c.tracer != nil {
		var span trace.Span
		ctx, span, ot = c.startSpan(ctx, req.OpName, req.Query)
		defer func() { endSpan(span, ot, err) }()
	}
	query := isQuery(req.Query)
	tenant := tenantOf(ctx)
	c.retries.earn(tenant)
	for attempt := 1; ; attempt++ {
		if ot != nil {
			ot.attempts = attempt
		}
		err = c.makeRequest(ctx, req, resp)
		if err == nil || attempt >= c.opts.MaxAttempts || !retryable(err, query) || failedOptional(ctx, err) || !c.retries.spend(tenant) {
			return err
		}
		wait := c.backoff(attempt, err)
		if dl, ok := requestDeadline(ctx); ok && deadlineFirst(dl, time.Now(), wait) {
			return err // the caller's deadline comes first: answer now
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// retryable says whether a failed call may be sent again: any transient failure of a
// query; for a mutation only a connection refused before sending.
func retryable(err error, query bool) bool {
	var ge *Error
	if !errors.As(err, &ge) {
		return false
	}
	if !query {
		var op *net.OpError
		return ge.Kind == KindTransport && errors.As(ge.Err, &op) && op.Op == "dial"
	}
	switch ge.Kind {
	case KindRateLimited, KindServer, KindTransport:
		return true
	case KindTimeout:
		return ge.Status == http.StatusOK // NerdGraph's TIMEOUT class, not our own deadline
	}
	return false
}

// backoff is the wait before retry n: Retry-After when given, else base×2^(n-1) with
// ±50 % jitter.
func (c *Client) backoff(n int, err error) time.Duration {
	var ge *Error
	if errors.As(err, &ge) && ge.RetryAfter > 0 {
		return ge.RetryAfter
	}
	d := c.opts.Backoff << (n - 1)
	return d/2 + time.Duration(mrand.Int64N(int64(d)))
}

// deadlineFirst reports whether a retry after wait would start at or after the caller's
// deadline dl: then it could not be answered, and the error is answered now.
func deadlineFirst(dl, now time.Time, wait time.Duration) bool { return dl.Sub(now) <= wait }

// requestDeadline is when the work for ctx must end: the earlier of ctx's deadline and
// the request's (Calls.SetDeadline).
func requestDeadline(ctx context.Context) (time.Time, bool) {
	dl, ok := ctx.Deadline()
	if calls := CallsFrom(ctx); calls != nil && !calls.deadline.IsZero() && (!ok || calls.deadline.Before(dl)) {
		return calls.deadline, true
	}
	return dl, ok
}

// attemptDeadline is when one HTTP attempt of a call ends: Timeout from now, or the
// request's deadline (Calls.SetDeadline) when that comes first. ctx's own deadline is
// left to ctx: an earlier one stays the one that ends the attempt (context.WithDeadline
// then arms no timer of its own), so ctx reports it as soon as the attempt fails.
func (c *Client) attemptDeadline(ctx context.Context) time.Time {
	dl := time.Now().Add(c.opts.Timeout)
	if calls := CallsFrom(ctx); calls != nil && !calls.deadline.IsZero() && calls.deadline.Before(dl) {
		return calls.deadline
	}
	return dl
}

// maxPooledBuf bounds the request buffers kept for reuse: a rare huge request's buffer
// is left to the garbage collector instead of pinning its memory in the pool.
const maxPooledBuf = 1 << 20

func pooled(b *bytes.Buffer) bool { return b.Cap() <= maxPooledBuf }

func (c *Client) makeRequest(ctx context.Context, req *gql.Request, resp *gql.Response) error {
	buf := c.bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if pooled(buf) {
			c.bufs.Put(buf)
		}
	}()
	if err := c.docs.encodeRequest(buf, req); err != nil {
		return fmt.Errorf("encode %s: %w", req.OpName, err)
	}

	var ans *answer
	var err error
	sharedAnswer := false
	if isQuery(req.Query) {
		// Identical concurrent queries of one key share one round trip (a storm of cron
		// jobs firing at the same minute); the key's hash is part of the flight key, so
		// tenants never share. Mutations are never collapsed.
		key := c.docs.flightKey(tenantOf(ctx), req.Query, buf.Bytes())
		var v any
		var shared bool
		v, err, shared = c.flight.Do(key, func() (any, error) { return c.fetch(ctx, buf.Bytes()) })
		ans, _ = v.(*answer)
		sharedAnswer = shared
		if shared && c.tracer != nil {
			if ot := opTraceFrom(ctx); ot != nil {
				ot.shared = true
			}
		}
	} else {
		ans, err = c.fetch(ctx, buf.Bytes())
	}
	if err != nil {
		return err
	}
	release, err := c.gate.enter(ctx, tenantOf(ctx), len(ans.body))
	if err != nil {
		if !sharedAnswer {
			c.releaseBody(ans)
		}
		return err
	}
	defer release()

	// The response readies itself for the answer when its operation knows how
	// (presize.go).
	presized := presizeFor(ctx, req, resp.Data, len(ans.body))
	wire := wireResponse{Data: resp.Data}
	decodeErr := UnmarshalJSON(ans.body, &wire)
	// Null or no data: nothing was decoded over the capacity set above. ("data" comes
	// first in NerdGraph's answers, so the search ends at once when it is there.)
	if presized != nil && (wire.Data == nil || !bytes.Contains(ans.body, []byte(`"data"`))) {
		presized.unpresize()
	}
	if !sharedAnswer {
		// Nothing holds the body once decoded: the decoder copies what it keeps (strings,
		// raw messages; TestDecodedAnswerOutlivesItsBody), and an answer shared by a
		// flight is left to the collector, since its other readers may still decode it.
		c.releaseBody(ans)
	}
	if ans.status != http.StatusOK {
		e := &Error{Kind: statusKind(ans.status), Status: ans.status, RetryAfter: ans.retryAfter}
		if decodeErr == nil {
			e.Errors = wire.Errors
		}
		return e
	}
	if decodeErr != nil {
		return &Error{Kind: KindTransport, Status: ans.status, Err: fmt.Errorf("decode %s: %w", req.OpName, decodeErr)}
	}
	errs := wire.Errors[:0:0]
	for _, e := range wire.Errors {
		if !isDeprecationWarning(e) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return &Error{Kind: classify(errs), Status: ans.status, RetryAfter: ans.retryAfter, Errors: errs}
	}
	return nil
}

// answer is a NerdGraph HTTP answer, read whole.
type answer struct {
	status     int
	retryAfter time.Duration
	body       []byte
}

// fetch makes one NerdGraph HTTP request (unless the circuit is open) and counts it on
// ctx's Calls.
func (c *Client) fetch(ctx context.Context, body []byte) (ans *answer, err error) {
	tenant := tenantOf(ctx) // breaker.go: one breaker per NerdGraph identity
	// The slot and the lease come first (slots.go): waiting for them says nothing of
	// NerdGraph, so the breaker neither hears of it nor holds its probe meanwhile.
	until := c.slotWait(ctx)
	release, err := c.slots.acquire(ctx, tenant, c.opts.MaxConcurrentPerKey, c.opts.BackgroundSlots, isBackground(ctx), until)
	if err != nil {
		return nil, err
	}
	defer release()
	lease, err := c.fleetLease(ctx, apiKey(ctx), until) // leases.go
	if err != nil {
		return nil, err
	}
	defer lease()
	if !c.breaker.allow(tenant) {
		return nil, &Error{Kind: KindUnavailable, RetryAfter: c.opts.BreakerCooldown, Err: ErrCircuitOpen}
	}
	defer func() {
		switch {
		case err == nil && ans.status >= 500:
			c.breaker.record(tenant, &Error{Kind: KindServer, Status: ans.status})
		case err != nil && Stopped(ctx) != nil:
			// The caller hung up or ran out of its own time: not NerdGraph's failure.
			c.breaker.release(tenant)
		default:
			c.breaker.record(tenant, err)
		}
	}()
	return c.fetchHTTP(ctx, body)
}

func (c *Client) fetchHTTP(ctx context.Context, body []byte) (*answer, error) {
	ctx, cancel := context.WithDeadline(ctx, c.attemptDeadline(ctx))
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("new request: %w", err)
	}
	// The fixed values are shared slices of capacity 1 (only ever read or replaced),
	// so the four headers cost one allocation, for the key.
	hreq.Header["Content-Type"] = c.hdr.json
	hreq.Header["Accept"] = c.hdr.json
	hreq.Header["User-Agent"] = c.hdr.userAgent
	if key := apiKey(ctx); key != "" {
		hreq.Header["Api-Key"] = []string{key}
	}

	if c.tracer != nil {
		if ot := opTraceFrom(ctx); ot != nil {
			ot.roundTrips++
		}
	}
	start := time.Now()
	hresp, err := c.opts.HTTPClient.Do(hreq)
	if calls := CallsFrom(ctx); calls != nil {
		defer func() { calls.add(time.Since(start)) }()
	}
	if err != nil {
		kind := KindTransport
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			kind = KindTimeout
		}
		return nil, &Error{Kind: kind, Err: err}
	}
	defer hresp.Body.Close()
	pooled, _ := c.bodies.Get().(*[]byte)
	var dst []byte
	if pooled != nil {
		dst = (*pooled)[:0]
	}
	b, err := readBodyInto(dst, hresp.Body, hresp.ContentLength, c.opts.MaxResponseBytes)
	if err != nil {
		kind := KindTransport
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			kind = KindTimeout
		}
		return nil, &Error{Kind: kind, Status: hresp.StatusCode, Err: err}
	}
	if int64(len(b)) > c.opts.MaxResponseBytes {
		return nil, &Error{Kind: KindTransport, Status: hresp.StatusCode, Err: errors.New("response too large")}
	}
	return &answer{status: hresp.StatusCode, retryAfter: retryAfter(hresp.Header), body: b}, nil
}

// maxPooledBody is the largest answer buffer kept for reuse: a rare huge answer is left
// to the collector rather than pinned in the pool.
const maxPooledBody = 4 << 20

// keepBody is whether an answer buffer goes back to the pool: up to maxPooledBody.
func keepBody(b []byte) bool { return b != nil && cap(b) <= maxPooledBody }

// releaseBody returns an answer's body buffer to the pool; the answer must not be read
// afterwards.
func (c *Client) releaseBody(ans *answer) {
	if ans == nil || !keepBody(ans.body) {
		return
	}
	b := ans.body[:0]
	ans.body = nil
	c.bodies.Put(&b)
}

// readBody reads a response body of at most limit bytes (one more tells that it is
// larger). A declared length within the limit sizes the buffer once instead of
// growing it from 512 bytes; an undeclared one (a gzipped answer) starts at 8 KiB.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	return readBodyInto(nil, r, size, limit)
}

// readBodyInto is readBody reading into dst's storage when it is large enough (an
// answer buffer from the pool: a 200-application page is 180 KB read per request).
func readBodyInto(dst []byte, r io.Reader, size, limit int64) ([]byte, error) {
	capacity := int64(8 << 10)
	if size >= 0 && size <= limit {
		capacity = size + 1 // the extra byte lets the final Read report EOF without growing
	}
	capacity = min(capacity, limit+1)
	b := dst[:0]
	if int64(cap(b)) < capacity {
		b = make([]byte, 0, capacity)
	}
	r = io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// isQuery reports whether a genqlient document's operation is a query (genqlient puts
// the operation first, fragments after it).
func isQuery(doc string) bool {
	return strings.HasPrefix(strings.TrimSpace(doc), "query")
}

func statusKind(status int) Kind {
	switch {
	case status == http.StatusUnauthorized:
		return KindAuth
	case status == http.StatusForbidden:
		return KindForbidden
	case status == http.StatusTooManyRequests:
		return KindRateLimited
	case status == http.StatusGatewayTimeout || status == http.StatusRequestTimeout:
		return KindTimeout
	case status >= 500:
		return KindServer
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		return KindInvalid
	}
	return KindTransport
}

func retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// Ping checks that NerdGraph answers HTTP at all (any status below 500, an
// authentication refusal included): the readiness probe of the gateway.
func (c *Client) Ping(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader([]byte(`{"query":"{__typename}"}`)))
	if err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", c.opts.UserAgent)
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode >= 500 {
		return fmt.Errorf("ping: NerdGraph answered HTTP %d", resp.StatusCode)
	}
	return nil
}
