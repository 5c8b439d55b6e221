package gateway

import (
	"bytes"
	"context"
	"errors"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate"
)

// request is a v2 call after the edge has read it: format, key identity, account,
// merged parameters and the raw body.
type request struct {
	http   *http.Request
	format string
	vars   map[string]string
	params restv2.Params
	body   []byte
	caller translate.Caller
	// mobile marks the mobile application routes (metric scope).
	mobile bool
}

// formatOf is the response format a path asks for: its .xml/.json extension.
func formatOf(r *http.Request) string {
	if strings.HasSuffix(r.URL.Path, ".xml") {
		return "xml"
	}
	return "json"
}

// readRequest reads what every route needs; errors are v2 errors for the caller.
// With the request's state st (nil: none), the request is kept in it.
func (g *Gateway) readRequest(r *http.Request, st *reqState) (*request, error) {
	var rq *request
	if st != nil {
		rq = &st.rq // one allocation a request fewer; the state lives as long
	} else {
		rq = new(request)
	}
	*rq = request{http: r, format: formatOf(r), vars: routeVars(r)}
	body, err := readBody(r, g.cfg.MaxBodyBytes) // bodycoding.go
	if err != nil {
		return nil, err
	}
	rq.body = body
	if isWrite(r.Method) {
		if err := checkBodyText(r.Header.Get("Content-Type"), body); err != nil {
			return nil, err
		}
	}
	form := ""
	if isFormBody(r.Header.Get("Content-Type"), body) {
		form = string(body)
	}
	rq.params, err = restv2.ParseParams(r.URL.RawQuery, form)
	if err != nil {
		return nil, err
	}
	return rq, nil
}

// isFormBody reports whether a body carries form-encoded parameters: declared as
// such (curl -d sends application/x-www-form-urlencoded, also on GET), or undeclared
// and shaped like k=v pairs rather than JSON or XML.
func isFormBody(contentType string, body []byte) bool {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return false
	}
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err == nil {
			switch mt {
			case "application/x-www-form-urlencoded":
				return true
			case "application/json", "application/xml", "text/xml":
				return false
			}
		}
	}
	return body[0] != '{' && body[0] != '[' && body[0] != '<' && bytes.IndexByte(body, '=') > 0
}

// resolveAccount picks the one account a request is scoped to:
// the /accounts/{id} path prefix, else the X-Account-ID header, else the key's only
// account, else default_account_id, else the account the key belongs to, else a 422
// naming those options.
func (g *Gateway) resolveAccount(ctx context.Context, rq *request, keyHash string) (int64, string, error) {
	s, name, err := accountHeader(rq.http.Header) // headers naming two accounts are a 400, path or not
	if err != nil {
		return 0, "", err
	}
	if s := rq.vars["accountId"]; s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return 0, "", restv2.BadRequest("Invalid account id in the path")
		}
		return id, "path", nil
	}
	if s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return 0, "", restv2.BadRequest("Invalid account id in the " + name + " header")
		}
		return id, "header", nil
	}
	ids, err := g.tr.Accounts(ctx, keyHash)
	if err != nil {
		var ge *ng.Error
		if errors.As(err, &ge) && ge.Kind == ng.KindAuth {
			return 0, "", restv2.ErrInvalidAPIKey()
		}
		return 0, "", err
	}
	if len(ids) == 1 {
		return ids[0], "single", nil
	}
	if g.cfg.DefaultAccountID != 0 {
		return g.cfg.DefaultAccountID, "default", nil
	}
	if len(ids) == 0 {
		return 0, "", restv2.Forbidden("This API key reaches no New Relic account")
	}
	return g.ownAccount(ctx, ids, keyHash) // ownaccount.go
}

// pathID is the path variable name as a positive id; anything else is a 404 titled
// notFound (REST answered an unknown id so).
func pathID(rq *request, name, notFound string) (int64, error) {
	id, err := strconv.ParseInt(rq.vars[name], 10, 64)
	if err != nil || id <= 0 {
		return 0, restv2.NotFound(notFound)
	}
	return id, nil
}

// Text rules of write bodies. They run on the raw bytes, before any
// decoder: Go's JSON decoder replaces invalid UTF-8 and lone surrogate escapes with
// U+FFFD, so a check after decoding cannot see them. A string value may not hold
// invalid UTF-8, a lone UTF-16 surrogate, NUL, or another control character (C0, DEL,
// C1); tab, newline and carriage return stay allowed, as in REST v2's free-text fields
// (changelog, description).

// isWrite reports whether a method carries a body the gateway writes upstream.
func isWrite(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// checkBodyText applies the text rules to a write body: a JSON body field by field, a
// form body parameter by parameter, anything else (XML) as a whole. The error is a
// 422 naming the field.
func checkBodyText(contentType string, body []byte) error {
	if len(body) == 0 {
		return nil
	}
	var field, problem string
	switch {
	case isFormBody(contentType, body):
		field, problem = formText(string(body))
	case isJSONBody(contentType, body):
		field, problem = jsonText(body)
	default:
		field, problem = "the request body", rawText(body)
	}
	if problem == "" {
		return nil
	}
	return restv2.Unprocessable(field + " " + problem)
}

func isJSONBody(contentType string, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return true
	}
	b := bytes.TrimSpace(body)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// formText checks each percent-decoded parameter name and value of a form body.
func formText(form string) (field, problem string) {
	for form != "" {
		var seg string
		seg, form, _ = strings.Cut(form, "&")
		k, v, _ := strings.Cut(seg, "=")
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			continue // ParseParams answers malformed escapes with its own 400
		}
		if p := rawText([]byte(key)); p != "" {
			return "a parameter name", p
		}
		if p := rawText([]byte(value)); p != "" {
			return key, p
		}
	}
	return "", ""
}

// rawText checks decoded text: what is wrong with it, or "".
func rawText(b []byte) string {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return "is not valid UTF-8"
		}
		if p := badRune(r); p != "" {
			return p
		}
		b = b[n:]
	}
	return ""
}

func badRune(r rune) string {
	switch {
	case r == 0:
		return "contains a NUL character"
	case r == '\t' || r == '\n' || r == '\r':
		return ""
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return "contains a control character (U+" + strings.ToUpper(strconv.FormatInt(int64(r), 16)) + ")"
	case r >= 0xd800 && r <= 0xdfff:
		return "contains a lone UTF-16 surrogate"
	}
	return ""
}

// jsonFrame is one open container while scanning a JSON body.
type jsonFrame struct {
	object    bool
	expectKey bool
	key       string
	index     int
}

// jsonText scans a JSON body's string literals on the raw bytes, naming each by its
// path (deployment.revision, application_ids[2]). Structure errors are left to the
// decoder (a 400 later).
func jsonText(b []byte) (field, problem string) {
	var stack []jsonFrame
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			stack = append(stack, jsonFrame{object: true, expectKey: true})
		case '[':
			stack = append(stack, jsonFrame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					stack[n-1].expectKey = true
				} else {
					stack[n-1].index++
				}
			}
		case ':':
			if n := len(stack); n > 0 {
				stack[n-1].expectKey = false
			}
		case '"':
			end, p := jsonString(b, i+1)
			n := len(stack)
			if n > 0 && stack[n-1].object && stack[n-1].expectKey {
				stack[n-1].key = string(b[i+1 : min(end, len(b))])
				if p != "" {
					return jsonPath(stack[:n-1], "a field name"), p
				}
			} else if p != "" {
				return jsonPath(stack, "the request body"), p
			}
			i = end
		}
	}
	return "", ""
}

func jsonPath(stack []jsonFrame, whole string) string {
	var sb strings.Builder
	for _, f := range stack {
		switch {
		case f.object && sb.Len() > 0:
			sb.WriteString("." + f.key)
		case f.object:
			sb.WriteString(f.key)
		default:
			sb.WriteString("[" + strconv.Itoa(f.index) + "]")
		}
	}
	if sb.Len() == 0 {
		return whole
	}
	return sb.String()
}

// jsonString checks the string literal starting at b[i] (after its opening quote) and
// returns the index of its closing quote and what is wrong with it ("" when nothing).
func jsonString(b []byte, i int) (end int, problem string) {
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i, problem
		case c == '\\' && i+1 < len(b):
			if b[i+1] != 'u' {
				i += 2
				continue
			}
			r, ok := hex4(b, i+2)
			if !ok {
				i += 2
				continue // malformed escape: the decoder's 400
			}
			i += 6
			if r >= 0xd800 && r <= 0xdbff {
				if lo, ok := hex4(b, i+2); ok && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' && lo >= 0xdc00 && lo <= 0xdfff {
					i += 6
					continue
				}
			}
			if p := badRune(r); p != "" && problem == "" {
				problem = p
			}
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 && problem == "" {
				problem = "is not valid UTF-8"
			} else if p := badRune(r); p != "" && problem == "" {
				problem = p
			}
			i += max(n, 1)
		}
	}
	return len(b), problem
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}

// peerAddress is the address of the connection a request came on: never a header a
// caller can set.
func peerAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// clientOf is the address a request is attributed to (the per-address guard, the
// access line): the connection's peer, unless the peer is one of
// Config.TrustedProxies; then the last address of X-Forwarded-For that is not itself a
// trusted proxy, as the proxies appended them (a caller can write the header's start,
// never what a trusted proxy appended after it).
func (g *Gateway) clientOf(r *http.Request) string { return g.clientBehind(r, peerAddress(r)) }

// clientBehind is clientOf for a request whose peer address is already read.
func (g *Gateway) clientBehind(r *http.Request, peer string) string {
	if len(g.cfg.TrustedProxies) == 0 || !g.trusted(peer) {
		return peer
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			hop := strings.TrimSpace(parts[j])
			if _, err := netip.ParseAddr(hop); err != nil {
				return peer // a hop that is no address: believe nothing before it
			}
			if !g.trusted(hop) {
				return hop
			}
		}
	}
	return peer
}

// trusted reports whether addr is in Config.TrustedProxies.
func (g *Gateway) trusted(addr string) bool {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range g.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// userAgentProduct is the product of a User-Agent (its first token, without the
// version), at most 64 characters of an HTTP token: what the access line records, never
// the whole header.
func userAgentProduct(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	tok, _, _ = strings.Cut(tok, "/")
	if len(tok) > 64 {
		tok = tok[:64]
	}
	b := []byte(tok)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			b[i] = '_'
		}
	}
	return string(b)
}
