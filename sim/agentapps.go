package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/v2bridge/v2bridge/sim/model"
)

// mutate applies fn to a copy of the data, rebuilds the world and swaps it in.
func (s *Server) mutate(fn func(d *Data) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	b, err := json.Marshal(s.data)
	if err != nil {
		return fmt.Errorf("copy data: %w", err)
	}
	cp := &Data{}
	if err := json.Unmarshal(b, cp); err != nil {
		return fmt.Errorf("copy data: %w", err)
	}
	if err := fn(cp); err != nil {
		return err
	}
	w, err := buildWorld(cp)
	if err != nil {
		return gqlError(classInvalidInput, "%s", err.Error())
	}
	s.data = cp
	s.world.Store(w)
	return nil
}

// appRef finds the APM application, or the browser application injected into one, that
// a guid names in d.
type appRef struct {
	acct    *Account
	apm     *APMApplication
	browser bool
}

func findApp(d *Data, guid string) (appRef, bool) {
	g, err := canonicalGUID(guid)
	if err != nil {
		return appRef{}, false
	}
	for i := range d.Accounts {
		a := &d.Accounts[i]
		for j := range a.APMApplications {
			app := &a.APMApplications[j]
			if entityGUID(a.ID, "APM", "APPLICATION", strconv.Itoa(app.ID)) == g {
				return appRef{acct: a, apm: app}, true
			}
			if app.Browser != nil && entityGUID(a.ID, "BROWSER", "APPLICATION", strconv.Itoa(app.Browser.ID)) == g {
				return appRef{acct: a, apm: app, browser: true}, true
			}
		}
	}
	return appRef{}, false
}

func settingsError(class model.AgentApplicationSettingsUpdateErrorClass, field, desc string) []*model.AgentApplicationSettingsUpdateError {
	return []*model.AgentApplicationSettingsUpdateError{{ErrorClass: &class, Field: &field, Description: &desc}}
}

// AgentApplicationSettingsUpdate changes the alias and Apdex/server-side settings of an
// APM application, or the Apdex target and loader of a browser application. Problems are
// reported in the payload's errors, as NerdGraph does.
func (r mutationResolver) AgentApplicationSettingsUpdate(ctx context.Context, guid string, in model.AgentApplicationSettingsUpdateInput) (*model.AgentApplicationSettingsUpdateResult, error) {
	req := requestFrom(ctx)
	res := &model.AgentApplicationSettingsUpdateResult{GUID: guid}
	var out *model.AgentApplicationSettingsUpdateResult
	err := r.s.mutate(func(d *Data) error {
		ref, ok := findApp(d, guid)
		if !ok || !req.caller.reach[ref.acct.ID] {
			res.Errors = settingsError(model.AgentApplicationSettingsUpdateErrorClassNotFound, "guid", "No application found for this guid")
			out = res
			return errSkip
		}
		if ref.browser {
			b := ref.apm.Browser
			if c := in.BrowserConfig; c != nil && c.ApdexTarget != nil {
				if *c.ApdexTarget <= 0 {
					res.Errors = settingsError(model.AgentApplicationSettingsUpdateErrorClassInvalidInput, "browserConfig.apdexTarget", "must be positive")
					out = res
					return errSkip
				}
				b.ApdexTarget = *c.ApdexTarget
			}
			if m := in.BrowserMonitoring; m != nil && m.Loader != nil {
				b.Loader = string(*m.Loader)
			}
			if in.Alias != nil {
				b.Name = *in.Alias
			}
			loader := model.AgentApplicationSettingsBrowserLoader(b.Loader)
			res.Alias = ptr(cmpOr(b.Name, ref.apm.Name))
			res.BrowserSettings = &model.AgentApplicationSettingsBrowserBase{
				BrowserConfig:     &model.AgentApplicationSettingsBrowserConfig{ApdexTarget: ptr(b.ApdexTarget)},
				BrowserMonitoring: &model.AgentApplicationSettingsBrowserMonitoring{Loader: loader},
			}
			out = res
			return nil
		}
		app := ref.apm
		if c := in.ApmConfig; c != nil {
			if c.ApdexTarget != nil {
				if *c.ApdexTarget <= 0 {
					res.Errors = settingsError(model.AgentApplicationSettingsUpdateErrorClassInvalidInput, "apmConfig.apdexTarget", "must be positive")
					out = res
					return errSkip
				}
				app.ApdexTarget = *c.ApdexTarget
			}
			if c.UseServerSideConfig != nil {
				app.ServerSideConfig = *c.UseServerSideConfig
			}
		}
		if in.Alias != nil {
			if *in.Alias == "" {
				res.Errors = settingsError(model.AgentApplicationSettingsUpdateErrorClassInvalidInput, "alias", "must not be empty")
				out = res
				return errSkip
			}
			app.Name = *in.Alias
		}
		res.Alias = ptr(app.Name)
		res.ApmSettings = &model.AgentApplicationSettingsApmBase{ApmConfig: &model.AgentApplicationSettingsApmConfig{
			ApdexTarget: ptr(app.ApdexTarget), UseServerSideConfig: ptr(app.ServerSideConfig)}}
		out = res
		return nil
	})
	if err != nil && err != errSkip {
		return nil, err
	}
	return out, nil
}

// AgentApplicationEnableApmBrowser injects a browser agent into an APM application.
func (r mutationResolver) AgentApplicationEnableApmBrowser(ctx context.Context, guid string, settings *model.AgentApplicationBrowserSettingsInput) (*model.AgentApplicationEnableBrowserResult, error) {
	req := requestFrom(ctx)
	var out *model.AgentApplicationEnableBrowserResult
	err := r.s.mutate(func(d *Data) error {
		ref, ok := findApp(d, guid)
		if !ok || ref.browser || !req.caller.reach[ref.acct.ID] {
			return gqlError(classInvalidInput, "No APM application found for guid %s", guid)
		}
		loader := "SPA"
		if settings != nil && settings.LoaderType != nil {
			loader = string(*settings.LoaderType)
		}
		if ref.apm.Browser == nil {
			ref.apm.Browser = &BrowserApplication{ID: nextAppID(d), ApdexTarget: 7, Loader: loader}
		} else {
			ref.apm.Browser.Loader = loader
		}
		out = &model.AgentApplicationEnableBrowserResult{Name: ref.apm.Name, Settings: &model.AgentApplicationApmBrowserSettings{
			LoaderType: model.AgentApplicationBrowserLoader(loader)}}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AgentApplicationDelete deletes an application by guid; like NerdGraph it refuses one
// that still reports (unless force).
func (r mutationResolver) AgentApplicationDelete(ctx context.Context, accountID *int, applicationName *string, force *bool, guid *string) (*model.AgentApplicationDeleteResult, error) {
	req := requestFrom(ctx)
	if guid == nil {
		return nil, gqlError("", "agentApplicationDelete by account and name is %s", UnsupportedMessage)
	}
	err := r.s.mutate(func(d *Data) error {
		ref, ok := findApp(d, *guid)
		if !ok || ref.browser || !req.caller.reach[ref.acct.ID] {
			return gqlError(classInvalidInput, "No APM application found for guid %s", *guid)
		}
		if ref.apm.Reporting && (force == nil || !*force) {
			return gqlError(classInvalidInput, "Cannot delete an application that is still reporting data")
		}
		apps := ref.acct.APMApplications
		for i := range apps {
			if apps[i].ID == ref.apm.ID {
				ref.acct.APMApplications = append(apps[:i], apps[i+1:]...)
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &model.AgentApplicationDeleteResult{Success: true}, nil
}

// AgentApplicationCreateBrowser creates a standalone browser application; the answer
// carries its loader script.
func (r mutationResolver) AgentApplicationCreateBrowser(ctx context.Context, accountID int, name string, settings *model.AgentApplicationBrowserSettingsInput) (*model.AgentApplicationCreateBrowserResult, error) {
	req := requestFrom(ctx)
	if !req.caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	if strings.TrimSpace(name) == "" {
		return nil, gqlError(classInvalidInput, "name must not be empty")
	}
	loader := "SPA" // NerdGraph's default loader
	if settings != nil && settings.LoaderType != nil {
		loader = string(*settings.LoaderType)
	}
	var out *model.AgentApplicationCreateBrowserResult
	err := r.s.mutate(func(d *Data) error {
		for i := range d.Accounts {
			a := &d.Accounts[i]
			if a.ID != accountID {
				continue
			}
			if a.BrowserLicenseKey == "" {
				a.BrowserLicenseKey = fmt.Sprintf("NRJS-%016x", accountID)
			}
			id := nextAppID(d)
			a.BrowserApplications = append(a.BrowserApplications, BrowserApplication{ID: id, Name: name, ApdexTarget: 7, Loader: loader})
			script := jsLoaderScript(accountID, id, a.BrowserLicenseKey, loader)
			out = &model.AgentApplicationCreateBrowserResult{
				GUID: entityGUID(accountID, "BROWSER", "APPLICATION", strconv.Itoa(id)), Name: name,
				Settings: &model.AgentApplicationBrowserSettings{CookiesEnabled: true, DistributedTracingEnabled: true,
					LoaderScript: &script, LoaderType: model.AgentApplicationBrowserLoader(loader)},
			}
			return nil
		}
		return gqlError(classForbidden, "Access denied to account %d", accountID)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AgentApplicationCreateMobile creates a mobile application and its agent token.
func (r mutationResolver) AgentApplicationCreateMobile(ctx context.Context, accountID int, name string) (*model.AgentApplicationCreateMobileResult, error) {
	req := requestFrom(ctx)
	if !req.caller.reach[accountID] {
		return nil, gqlError(classForbidden, "Access denied to account %d", accountID)
	}
	if strings.TrimSpace(name) == "" {
		return nil, gqlError(classInvalidInput, "name must not be empty")
	}
	var out *model.AgentApplicationCreateMobileResult
	err := r.s.mutate(func(d *Data) error {
		for i := range d.Accounts {
			a := &d.Accounts[i]
			if a.ID != accountID {
				continue
			}
			id := nextAppID(d)
			token := fmt.Sprintf("AA%038x-NRMA", id)
			a.MobileApplications = append(a.MobileApplications, MobileApplication{ID: id, Name: name, ApplicationToken: token})
			out = &model.AgentApplicationCreateMobileResult{AccountID: accountID, ApplicationToken: token,
				GUID: entityGUID(accountID, "MOBILE", "APPLICATION", strconv.Itoa(id)), Name: name}
			return nil
		}
		return gqlError(classForbidden, "Access denied to account %d", accountID)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// errSkip ends a mutation without changing anything (the answer carries payload errors).
var errSkip = fmt.Errorf("no change")

func nextAppID(d *Data) int {
	id := 0
	for _, a := range d.Accounts {
		for _, app := range a.APMApplications {
			id = max(id, app.ID)
			if app.Browser != nil {
				id = max(id, app.Browser.ID)
			}
		}
		for _, b := range a.BrowserApplications {
			id = max(id, b.ID)
		}
		for _, m := range a.MobileApplications {
			id = max(id, m.ID)
		}
	}
	return id + 1
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
