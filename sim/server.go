package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/sim/internal/exec"
)

// Path is where the simulator serves GraphQL, as api.newrelic.com does.
const Path = "/graphql"

// maxBodyBytes bounds a request body.
const maxBodyBytes = 4 << 20

// unauthorizedBody is the answer to a missing or unknown API key. The shape follows
// what NerdGraph clients check (HTTP 401, extensions.error_code BAD_API_KEY); the exact
// body of the real service is unverified.
const unauthorizedBody = `{"errors":[{"message":"Invalid API key","extensions":{"errorClass":"UNAUTHORIZED","error_code":"BAD_API_KEY"}}]}`

// Server is the NerdGraph simulator: an http.Handler answering POST /graphql like
// api.newrelic.com/graphql does, from a fixed data set. It is safe for concurrent use.
type Server struct {
	world   atomic.Pointer[world] // read-only snapshot; writes would swap it (copy-on-write)
	now     func() time.Time
	nrql    NRQLRunner
	summary SummaryFunc
	events  eventStore

	// wmu serialises writes: a mutation edits a copy of data, rebuilds the world and
	// swaps it in, so reads never see half a write.
	wmu     sync.Mutex
	data    *Data
	log     *zap.Logger
	exec    *executor.Executor
	handler http.Handler
	mws     []func(http.Handler) http.Handler

	// lastConditionID is the highest alert condition id handed out (under wmu), so
	// that ids of deleted conditions are never reused.
	lastConditionID int

	budget   nrqlBudget // nrqlbudget.go
	inflight inFlight   // concurrency.go

	requests atomic.Int64
	mu       sync.Mutex
	byOp     map[string]int64
}

// Option configures a Server.
type Option func(*Server)

// WithClock sets the clock the simulator reads "now" from (NRQL time windows);
// default time.Now.
func WithClock(now func() time.Time) Option {
	return func(s *Server) { s.now = now }
}

// WithNRQL plugs in the NRQL engine behind Account.nrql and Actor.nrql. Without one,
// NRQL fields answer the GraphQL error "NRQL is not enabled in this simulator".
func WithNRQL(r NRQLRunner) Option {
	return func(s *Server) { s.nrql = r }
}

// WithLogger sets the logger for internal errors (recovered panics); default none.
func WithLogger(l *zap.Logger) Option {
	return func(s *Server) { s.log = l }
}

// WithMiddleware wraps the GraphQL endpoint, e.g. to inject faults (latency, HTTP 429,
// 5xx) in tests. It runs after request counting and before authentication; the first
// middleware given is the outermost.
func WithMiddleware(mw func(http.Handler) http.Handler) Option {
	return func(s *Server) { s.mws = append(s.mws, mw) }
}

// New returns a simulator serving data. Data from ParseData is always accepted; New
// panics on data that fails Data.Validate (use NewDemo to get an error instead).
func New(data *Data, opts ...Option) *Server {
	s, err := newServer(data, opts...)
	if err != nil {
		panic(fmt.Sprintf("sim.New: %v", err))
	}
	return s
}

// NewDemo is New for the `demo` and `sim` commands: invalid data is an error rather
// than a panic.
func NewDemo(data *Data, opts ...Option) (*Server, error) {
	return newServer(data, append(opts, withDemoNRQL(data))...)
}

func newServer(data *Data, opts ...Option) (*Server, error) {
	if data == nil {
		return nil, errors.New("sim: nil data")
	}
	w, err := buildWorld(data)
	if err != nil {
		return nil, err
	}
	s := &Server{now: time.Now, log: zap.NewNop(), byOp: map[string]int64{}, data: data,
		budget: nrqlBudget{limit: NRQLBudget}, inflight: inFlight{limit: NerdGraphConcurrency}}
	s.world.Store(w)
	for _, o := range opts {
		o(s)
	}
	ex := executor.New(exec.NewExecutableSchema(exec.Config{Resolvers: &resolver{s: s}}))
	ex.Use(introspection{})
	ex.Use(unsupportedFields{})
	ex.SetQueryCache(newQueryCache(1000))
	ex.SetRecoverFunc(func(ctx context.Context, v any) error {
		s.log.Error("simulator panic", zap.Any("panic", v), zap.String("path", graphql.GetPath(ctx).String()))
		return gqlError(classInternal, "internal simulator error")
	})
	s.exec = ex
	var h http.Handler = http.HandlerFunc(s.serveGraphQL)
	for i := len(s.mws) - 1; i >= 0; i-- {
		h = s.mws[i](h)
	}
	s.handler = h
	return s, nil
}

// Requests returns how many HTTP requests the simulator has received, whatever their
// outcome (401s, bad bodies and GraphQL errors included).
func (s *Server) Requests() int64 { return s.requests.Load() }

// RequestsByOperation returns, per operationName, how many authenticated requests with
// a well-formed JSON body the simulator has received; requests without an
// operationName count under "".
func (s *Server) RequestsByOperation() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.byOp)
}

// ServeHTTP serves POST /graphql. A known key's request counts against its user's
// concurrency (concurrency.go) for as long as it takes, middlewares' latency included.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if c := s.world.Load().callers[r.Header.Get("API-Key")]; c != nil {
		user := userIdentity(c)
		if !s.inflight.enter(user) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(tooManyConcurrentBody))
			return
		}
		defer s.inflight.leave(user)
	}
	s.handler.ServeHTTP(w, r)
}

func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	start := graphql.Now()
	if r.URL.Path != Path {
		writeError(w, http.StatusNotFound, "Not found: the simulator serves POST "+Path)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "Method not allowed: use POST")
		return
	}
	wld := s.world.Load()
	c := wld.callers[r.Header.Get("API-Key")]
	if c == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(unauthorizedBody))
		return
	}
	var params graphql.RawParams
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid JSON request body: "+err.Error())
		return
	}
	params.Headers = nil
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	s.countOperation(params.OperationName)

	ctx := withRequest(r.Context(), &request{world: wld, caller: c})
	ctx = graphql.StartOperationTrace(ctx)
	oc, errs := s.exec.CreateOperationContext(ctx, &params)
	if errs != nil {
		writeJSON(w, s.exec.DispatchError(graphql.WithOperationContext(ctx, oc), errs))
		return
	}
	responses, ctx := s.exec.DispatchOperation(ctx, oc)
	writeJSON(w, responses(ctx))
}

func (s *Server) countOperation(name string) {
	s.mu.Lock()
	s.byOp[name]++
	s.mu.Unlock()
}

// writeJSON writes a GraphQL response. Like NerdGraph, GraphQL errors (validation
// included) come with HTTP 200. The data, already JSON from the executor, is copied
// as is rather than re-encoded.
func writeJSON(w http.ResponseWriter, resp *graphql.Response) {
	var b bytes.Buffer
	b.Grow(len(resp.Data) + 64)
	sep := byte('{')
	field := func(name string, raw []byte) {
		b.WriteByte(sep)
		sep = ','
		b.WriteString(`"` + name + `":`)
		b.Write(raw)
	}
	if len(resp.Errors) > 0 {
		errs, err := json.Marshal(resp.Errors)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "encode errors: "+err.Error())
			return
		}
		field("errors", errs)
	}
	// Data is absent when the request failed before execution (GraphQL spec).
	if len(resp.Data) > 0 {
		field("data", resp.Data)
	}
	if len(resp.Extensions) > 0 {
		ext, err := json.Marshal(resp.Extensions)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "encode extensions: "+err.Error())
			return
		}
		field("extensions", ext)
	}
	if sep == '{' {
		b.WriteByte('{')
	}
	b.WriteByte('}')
	w.Header().Set("Content-Type", "application/json")
	_, _ = b.WriteTo(w)
}

// writeError writes a GraphQL-shaped error body with an HTTP error status.
func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"errors": []map[string]any{{"message": msg}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// request is what resolvers of one HTTP request share: the world snapshot and the
// caller the API key identifies.
type request struct {
	world  *world
	caller *caller
}

type requestKey struct{}

func withRequest(ctx context.Context, r *request) context.Context {
	return context.WithValue(ctx, requestKey{}, r)
}

func requestFrom(ctx context.Context) *request {
	r, _ := ctx.Value(requestKey{}).(*request)
	return r
}
