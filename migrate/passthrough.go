package migrate

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/v2bridge/v2bridge/gateway"
)

// bufferPool gives ReverseProxy reusable 32 KiB copy buffers.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() []byte {
	if v, ok := b.p.Get().(*[]byte); ok {
		return *v
	}
	return make([]byte, 32<<10)
}

func (b *bufferPool) Put(buf []byte) { b.p.Put(&buf) }

// NewPassthrough forwards REST v2 calls to base (…/v2): method, body and query
// unchanged, and of the headers only what REST needs (forwardHeaders), the response
// streamed back with its Link URLs rewritten to the gateway and Sunset/Deprecation
// headers added (not for the retained alerts namespaces, which the REST v2 end of life
// does not retire). It adds itself to Via (1.1 v2bridge), and refuses a request that
// already names it there (loopguard.go). It is a gateway.Config.Passthrough.
func NewPassthrough(base *url.URL) http.Handler {
	rp := &httputil.ReverseProxy{
		BufferPool: &bufferPool{},
		Rewrite: func(pr *httputil.ProxyRequest) {
			path := pr.In.URL.EscapedPath()
			if i := strings.Index(path, "/v2/"); i >= 0 {
				path = path[i+len("/v2"):]
			} else if strings.HasPrefix(path, "/accounts/") {
				// legacy root routes under an account prefix: /accounts/{id}/deployments.xml
				if j := strings.Index(path[len("/accounts/"):], "/"); j >= 0 {
					path = path[len("/accounts/")+j:]
				}
			}
			target := *base
			target.RawPath = ""
			target.Path = strings.TrimSuffix(base.Path, "/v2") + pathPrefixFor(pr.In.URL.Path) + mustUnescape(path)
			target.RawQuery = pr.In.URL.RawQuery
			pr.Out.URL = &target
			pr.Out.Host = target.Host
			pr.Out.Header = forwardHeaders(pr.In.Header)
			pr.Out.Header["Via"] = append(slices.Clone(pr.In.Header["Via"]), viaValue) // loopguard.go
		},
		ModifyResponse: func(resp *http.Response) error {
			h := resp.Header
			if link := h.Get("Link"); link != "" {
				h.Set("Link", rewriteLinks(resp.Request, link, base))
			}
			if !gateway.IsRetainedPath(resp.Request.URL.Path) { // the retained namespaces are not retired
				h.Set("Sunset", gateway.Sunset().Format(http.TimeFormat))
				h.Set("Deprecation", "@"+strconv.FormatInt(gateway.Sunset().Unix(), 10))
			}
			h.Set("X-V2bridge-Mode", string(gateway.ModePassthrough))
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			gateway.WriteError(w, r, &gateway.PassthroughError{Err: err})
		},
	}
	return loopGuard(rp)
}

// forwardedHeaders are the caller's headers REST needs besides its key: what the body
// is and what answer it takes, the User-Agent REST records, and the caller's trace
// context (W3C traceparent and tracestate, New Relic's newrelic header). Nothing else
// is forwarded (but Via, with this gateway added: loopguard.go): no Cookie, no
// Authorization, no other credential, no gateway selector (X-Account-ID).
var forwardedHeaders = [...]string{"Accept", "Accept-Encoding", "Content-Type", "Content-Encoding", "User-Agent",
	"Traceparent", "Tracestate", "Newrelic"}

// forwardHeaders is the header of a forwarded request: the caller's one key, in the
// header it came in (gateway.ForwardedKey), and forwardedHeaders.
func forwardHeaders(in http.Header) http.Header {
	out := make(http.Header, len(forwardedHeaders)+1)
	if name, key := gateway.ForwardedKey(in); key != "" {
		out[name] = []string{key}
	}
	for _, name := range forwardedHeaders {
		if v := in[name]; len(v) > 0 {
			out[name] = slices.Clone(v)
		}
	}
	return out
}

// pathPrefixFor keeps /v2 for v2 routes; legacy root routes have none.
func pathPrefixFor(p string) string {
	if strings.Contains(p, "/v2/") {
		return "/v2"
	}
	return ""
}

func mustUnescape(p string) string {
	u, err := url.PathUnescape(p)
	if err != nil {
		return p
	}
	return u
}

// rewriteLinks points REST v2's absolute Link URLs at the gateway as the caller reached
// it (its /accounts/{id} prefix included).
func rewriteLinks(out *http.Request, link string, base *url.URL) string {
	public := gateway.PublicBase(out.Context())
	if public == "" {
		return link
	}
	return strings.ReplaceAll(link, strings.TrimSuffix(base.String(), "/"), public+"/v2")
}
