package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
)

// BrowserListRequest is a parsed GET /v2/browser_applications.
type BrowserListRequest struct {
	// Name is filter[name]: a case-insensitive substring, or several separated by
	// commas, any of which matches ("To get information for multiple apps, separate
	// the name or ID values with a comma": docs-website
	// src/content/docs/apis/rest-api-v2/browser-examples-v2/add-or-list-browser-apps-api-v2.mdx).
	Name string
	IDs  []int64
	Page int
}

type browserOutline struct {
	id   int64 // REST id: the serving APM application's id for injected agents, else the browser id
	name string
	guid string
}

// ListBrowserApplications answers GET /v2/browser_applications: the account's browser
// applications (cached per caller for ListTTL) filtered in Go, then one request for
// the page's loader scripts.
func (t *Translator) ListBrowserApplications(ctx context.Context, c Caller, r BrowserListRequest) (*restv2.BrowserApplicationList, Paging, error) {
	r.Page = max(r.Page, 1)
	all, err := t.browserOutlines(ctx, c)
	if err != nil {
		return nil, Paging{}, err
	}
	var names []string // the comma-separated names, blank ones left out (a trailing comma matches nothing more)
	for _, n := range strings.Split(r.Name, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	var kept []browserOutline
	for _, b := range all {
		if (len(names) == 0 || slices.ContainsFunc(names, func(n string) bool { return containsFold(b.name, n) })) &&
			(len(r.IDs) == 0 || slices.Contains(r.IDs, b.id)) {
			kept = append(kept, b)
		}
	}
	page, paging := pageOf(kept, r.Page, PageSize)
	out := &restv2.BrowserApplicationList{Applications: make([]restv2.BrowserApplication, 0, len(page))}
	if len(page) > 0 {
		details, err := t.browserDetails(ctx, page)
		if err != nil {
			return nil, Paging{}, err
		}
		for _, b := range page {
			d := details[b.guid]
			out.Applications = append(out.Applications, restv2.BrowserApplication{ID: b.id, Name: b.name,
				BrowserMonitoringKey: d.key, LoaderScript: d.script})
		}
	}
	return out, paging, nil
}

func (t *Translator) browserOutlines(ctx context.Context, c Caller) ([]browserOutline, error) {
	key := t.writeScoped(c, "browser-apps")
	if v, ok := t.st.Lists.Get(key); ok {
		return v.([]browserOutline), nil
	}
	query, err := EntitySearch(c.AccountID, DomainBrowser, TypeApp).Build()
	if err != nil {
		return nil, err
	}
	var out []browserOutline
	var cursor *string
	for {
		resp, err := ng.BrowserSearch(ctx, t.client, query, cursor)
		if err != nil {
			return nil, fmt.Errorf("browser applications: %w", err)
		}
		res := resp.GetActor().GetEntitySearch().GetResults()
		if res == nil {
			break
		}
		for i := range res.Entities {
			b := &res.Entities[i]
			if !b.IsBrowserApplication() || b.ApplicationId == nil {
				continue
			}
			id := int64(*b.ApplicationId)
			if s := b.ServingApmApplicationId; s != nil && *s != 0 {
				id = int64(*s)
			}
			out = append(out, browserOutline{id: id, name: deref(b.Name), guid: deref(b.Guid)})
		}
		if cursor = res.NextCursor; cursor == nil {
			break
		}
	}
	t.st.Lists.Set(key, out)
	return out, nil
}

type browserDetail struct{ key, script string }

func (t *Translator) browserDetails(ctx context.Context, page []browserOutline) (map[string]browserDetail, error) {
	var g [8][]*string
	for i, b := range page {
		guid := b.guid
		g[i/25] = append(g[i/25], &guid)
	}
	for i := range g {
		if g[i] == nil {
			g[i] = []*string{}
		}
	}
	resp, err := ng.BrowserDetails(ctx, t.client, g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7])
	if err != nil {
		return nil, fmt.Errorf("browser application details: %w", err)
	}
	out := map[string]browserDetail{}
	a := resp.GetActor()
	if a == nil {
		return out, nil
	}
	var all []any
	for _, es := range [][]any{anySlice(a.E0), anySlice(a.E1), anySlice(a.E2), anySlice(a.E3), anySlice(a.E4), anySlice(a.E5), anySlice(a.E6), anySlice(a.E7)} {
		all = append(all, es...)
	}
	for _, e := range all {
		be, ok := e.(interface {
			GetGuid() *string
			GetBrowserProperties() *ng.BrowserDetailFieldsBrowserPropertiesAgentApplicationSettingsBrowserProperties
		})
		if !ok || be.GetBrowserProperties() == nil {
			continue
		}
		p := be.GetBrowserProperties()
		script := decodeScript(deref(p.JsLoaderScript))
		out[deref(be.GetGuid())] = browserDetail{script: script, key: licenseKey(script, p.JsConfig)}
	}
	return out, nil
}

func anySlice[T any](xs []*T) []any {
	out := make([]any, 0, len(xs))
	for _, x := range xs {
		if x != nil {
			out = append(out, any(*x))
		}
	}
	return out
}

// decodeScript undoes NerdGraph's JSON encoding of the snippet when present, so REST's
// JSON encoding is not doubled.
func decodeScript(s string) string {
	if strings.HasPrefix(s, `"`) {
		var out string
		if json.Unmarshal([]byte(s), &out) == nil {
			return out
		}
	}
	return s
}

var licenseKeyInScript = regexp.MustCompile(`licenseKey:"([^"]+)"`)

// licenseKey is the browser monitoring key: from the agent configuration
// (info.licenseKey or licenseKey), else from the loader script.
func licenseKey(script string, cfg *json.RawMessage) string {
	if cfg != nil {
		var c struct {
			LicenseKey string `json:"licenseKey"`
			Info       struct {
				LicenseKey string `json:"licenseKey"`
			} `json:"info"`
		}
		if json.Unmarshal(*cfg, &c) == nil {
			if c.Info.LicenseKey != "" {
				return c.Info.LicenseKey
			}
			if c.LicenseKey != "" {
				return c.LicenseKey
			}
		}
	}
	if m := licenseKeyInScript.FindStringSubmatch(script); m != nil {
		return m[1]
	}
	return ""
}

// CreateBrowserApplication answers POST /v2/browser_applications (never retried).
func (t *Translator) CreateBrowserApplication(ctx context.Context, c Caller, name string, loader ng.AgentApplicationBrowserLoader) (*restv2.BrowserApplicationShow, error) {
	if strings.TrimSpace(name) == "" {
		return nil, restv2.Unprocessable("browser_application.name is required")
	}
	// Also when the outcome is unknown (it may have been created); no APM application's
	// name changes, so the name index moves on as it is.
	defer t.wroteApps(c, true)
	resp, err := ng.BrowserCreate(ctx, t.client, int(c.AccountID), name, ng.AgentApplicationBrowserSettingsInput{LoaderType: &loader})
	if err != nil {
		return nil, createError(err, "browser application", "GET /v2/browser_applications.json?filter[name]="+name)
	}
	r := resp.AgentApplicationCreateBrowser
	if r == nil {
		return nil, restv2.WriteOutcomeUnknown("browser application", "GET /v2/browser_applications.json")
	}
	g, err := ParseGUID(r.Guid)
	if err != nil {
		return nil, fmt.Errorf("created browser application: %w", err)
	}
	id, _ := strconv.ParseInt(g.DomainID, 10, 64)
	script := ""
	if r.Settings != nil {
		script = decodeScript(deref(r.Settings.LoaderScript))
	}
	return &restv2.BrowserApplicationShow{Application: restv2.BrowserApplication{ID: id, Name: r.Name,
		BrowserMonitoringKey: licenseKey(script, nil), LoaderScript: script}}, nil
}

func createError(err error, what, check string) error {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return err
	}
	switch ge.Kind {
	case ng.KindTimeout:
		return restv2.WriteTimedOut(what, check)
	case ng.KindTransport, ng.KindServer:
		return restv2.WriteOutcomeUnknown(what, check)
	case ng.KindInvalid:
		msg := "rejected by New Relic"
		if len(ge.Errors) > 0 {
			msg = ge.Errors[0].Message
		}
		return restv2.Unprocessable("Validation error occurred while creating the "+what, msg)
	}
	return err
}
