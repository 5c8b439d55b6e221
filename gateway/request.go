package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// request is a v2 call after the edge has read it: format, key identity, account,
// merged parameters and the raw body.
type request struct {
	http   *http.Request
	format string
	vars   map[string]string
	params v2.Params
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

// apiKey returns the caller's key from Api-Key or X-Api-Key (any case). When both are
// sent and differ, Api-Key wins (New Relic documents both headers, not a precedence).
func apiKey(h http.Header) string {
	if k := strings.TrimSpace(h.Get("Api-Key")); k != "" {
		return k
	}
	return strings.TrimSpace(h.Get("X-Api-Key"))
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
	var body []byte
	var err error
	if r.Body != nil && r.Body != http.NoBody {
		body, err = io.ReadAll(io.LimitReader(r.Body, g.cfg.MaxBodyBytes+1))
	}
	if err != nil {
		return nil, v2.BadRequest("Could not read the request body")
	}
	if int64(len(body)) > g.cfg.MaxBodyBytes {
		return nil, v2.TooLarge(fmt.Sprintf("Request body larger than %d bytes", g.cfg.MaxBodyBytes))
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
	rq.params, err = v2.ParseParams(r.URL.RawQuery, form)
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
// account, else default_account_id, else a 422 naming those options.
func (g *Gateway) resolveAccount(ctx context.Context, rq *request, keyHash string) (int64, string, error) {
	if s := rq.vars["accountId"]; s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return 0, "", v2.BadRequest("Invalid account id in the path")
		}
		return id, "path", nil
	}
	// Looked up by their canonical spelling (no allocation), named as documented.
	for _, h := range [...]struct{ key, name string }{{"X-Account-Id", "X-Account-ID"}, {"Newrelic-Account-Id", "NewRelic-Account-Id"}} {
		if s := strings.TrimSpace(rq.http.Header.Get(h.key)); s != "" {
			id, err := strconv.ParseInt(s, 10, 64)
			if err != nil || id <= 0 {
				return 0, "", v2.BadRequest("Invalid account id in the " + h.name + " header")
			}
			return id, "header", nil
		}
	}
	ids, err := g.tr.Accounts(ctx, keyHash)
	if err != nil {
		var ge *ng.Error
		if errors.As(err, &ge) && ge.Kind == ng.KindAuth {
			return 0, "", v2.ErrInvalidAPIKey()
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
		return 0, "", v2.Forbidden("This API key reaches no New Relic account")
	}
	return 0, "", v2.Unprocessable("This API key reaches several New Relic accounts; " +
		"name one with the X-Account-ID header or an /accounts/{account_id}/v2/... base URL, " +
		"or set default_account_id in the v2bridge configuration")
}

// jsonBodyError is the v2 error for a JSON body that did not decode: 400 when it is not
// JSON at all, else 422 with title (valid JSON holding a value of the wrong kind, such
// as "enabled": "yes"), naming the value in the message.
func jsonBodyError(body []byte, err error, title string) *v2.Error {
	var se *json.SyntaxError
	if errors.As(err, &se) || !json.Valid(bytes.TrimSpace(body)) {
		return v2.BadRequest("The request body is not valid JSON: " + err.Error())
	}
	return v2.Unprocessable(title, err.Error())
}

func pathID(rq *request, name, notFound string) (int64, error) {
	id, err := strconv.ParseInt(rq.vars[name], 10, 64)
	if err != nil || id <= 0 {
		return 0, v2.NotFound(notFound)
	}
	return id, nil
}
