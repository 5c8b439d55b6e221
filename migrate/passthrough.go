package migrate

import (
	"net/http"
	"net/http/httputil"
	"net/url"
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

// NewPassthrough forwards REST v2 calls to base (…/v2): method, body, query and key
// headers unchanged, the response streamed back with its Link URLs rewritten to the
// gateway and Sunset/Deprecation headers added (not for the retained alerts
// namespaces, which the REST v2 end of life does not retire). Hop-by-hop headers are
// handled by httputil.ReverseProxy. The request carries Via: 1.1 v2bridge, and one that
// already does is refused (loopguard.go). It is a gateway.Config.Passthrough.
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
			pr.Out.Header.Add("Via", viaValue)
			pr.Out.Header.Del("X-Account-ID") // a gateway selector, not a REST v2 header
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
