package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/state"
	"github.com/v2bridge/v2bridge/translate/nameindex"
)

// BrowserLoader is the loader type used when a PUT switches real user monitoring on for
// an application without browser monitoring (REST v2 created Lite agents).
const BrowserLoader = ng.AgentApplicationBrowserLoaderLite

// UpdateApplication answers PUT /v2/applications/{id}: one read (current values, the
// browser application) and, when something changes, one mutation document with only the
// changed fields. The answer is the application with the changes applied. An update is
// idempotent by construction: a retry after an unknown outcome (502/504 "may have been
// recorded") reads the values again and sends only what still differs, so an applied
// first attempt is neither applied twice nor misreported (tests/e2e/writes_retry_test.go).
func (t *Translator) UpdateApplication(ctx context.Context, c Caller, id int64, in restv2.ApplicationUpdate) (*restv2.ApplicationShow, error) {
	// Also after a failed write (it may have half applied); the name index keeps the
	// outcome when it is known (nameindexes.go).
	known := true
	var edits []nameindex.Edit
	defer func() { t.wroteApps(c, known, edits...) }()
	app, browser, err := t.applicationWithBrowser(ctx, c, id)
	if err != nil {
		return nil, err
	}
	guid := AppGUID(c.AccountID, DomainAPM, id)
	var apm, br ng.AgentApplicationSettingsUpdateInput
	updateApm, updateBrowser, enable := false, false, false
	if in.Name != nil && *in.Name != app.Name {
		if strings.TrimSpace(*in.Name) == "" {
			return nil, restv2.Unprocessable("Validation error occurred when updating the application", "name must not be empty")
		}
		apm.Alias, updateApm = in.Name, true
	}
	if v := in.AppApdexThreshold; v != nil && *v != app.Settings.AppApdexThreshold {
		apm.ApmConfig, updateApm = &ng.AgentApplicationSettingsApmConfigInput{ApdexTarget: v}, true
	}
	browserGUID := guid
	if browser != nil && browser.appID != 0 {
		browserGUID = AppGUID(c.AccountID, DomainBrowser, browser.appID)
	}
	// afterEnable is an end user Apdex threshold sent with enable_real_user_monitoring
	// true to an application without browser monitoring (the docs' alias example,
	// docs-website .../application-examples-v2/change-alias-your-application-v2.mdx,
	// sends both): it is set on the browser application the enable creates.
	var afterEnable *float64
	if v := in.EndUserApdexThreshold; v != nil && (app.Settings.EndUserApdexThreshold == nil || *v != *app.Settings.EndUserApdexThreshold) {
		switch {
		case browser != nil:
			br.BrowserConfig, updateBrowser = &ng.AgentApplicationSettingsBrowserConfigInput{ApdexTarget: v}, true
		case in.EnableRealUserMonitoring != nil && *in.EnableRealUserMonitoring:
			afterEnable = v
		case *v == app.Settings.EndUserApdex():
			// The value a GET shows without browser monitoring, sent back unchanged.
		default:
			return nil, restv2.Unprocessable("Validation error occurred when updating the application", "end_user_apdex_threshold needs real user monitoring: set enable_real_user_monitoring to true")
		}
	}
	if v := in.EnableRealUserMonitoring; v != nil && *v != app.Settings.EnableRealUserMonitoring {
		switch {
		case *v && browser == nil:
			enable = true
		case !*v && browser != nil:
			none := ng.AgentApplicationSettingsBrowserLoaderInputNone
			br.BrowserMonitoring, updateBrowser = &ng.AgentApplicationSettingsBrowserMonitoringInput{Loader: &none}, true
		}
	}
	if !updateApm && !updateBrowser && !enable {
		return &restv2.ApplicationShow{Application: *app}, nil
	}
	loader := BrowserLoader
	known = false // from here the write may apply
	resp, err := ng.AppUpdate(ctx, t.client, guid, apm, updateApm, browserGUID, br, updateBrowser,
		ng.AgentApplicationBrowserSettingsInput{LoaderType: &loader}, enable)
	if err != nil {
		return nil, appWriteError(err, id, "application update")
	}
	if err := appUpdateProblems(resp.Apm, resp.Browser); err != nil {
		return nil, err
	}
	known = true
	if apm.Alias != nil {
		edits = append(edits, nameindex.Edit{Entry: nameindex.Entry{ID: id, Name: *apm.Alias, Language: app.Language, Reporting: app.Reporting}})
	}
	if afterEnable != nil {
		if err := t.setEnabledBrowserApdex(ctx, c, id, guid, *afterEnable); err != nil {
			return nil, err
		}
		br.BrowserConfig = &ng.AgentApplicationSettingsBrowserConfigInput{ApdexTarget: afterEnable}
	}
	// The answer is the read overlaid with what changed (a re-read could race NerdGraph's
	// eventual consistency).
	if apm.Alias != nil {
		app.Name = *apm.Alias
	}
	if apm.ApmConfig != nil {
		app.Settings.AppApdexThreshold = *apm.ApmConfig.ApdexTarget
		if app.Summary != nil {
			app.Summary.ApdexTarget = *apm.ApmConfig.ApdexTarget
		}
	}
	if br.BrowserConfig != nil {
		app.Settings.EndUserApdexThreshold = br.BrowserConfig.ApdexTarget
		if app.EndUser != nil {
			app.EndUser.ApdexTarget = *br.BrowserConfig.ApdexTarget
		}
	}
	if enable {
		app.Settings.EnableRealUserMonitoring = true
	}
	if br.BrowserMonitoring != nil {
		app.Settings.EnableRealUserMonitoring = false
		app.EndUser = nil
	}
	return &restv2.ApplicationShow{Application: *app}, nil
}

// DeleteApplication answers DELETE /v2/applications/{id}: REST refused applications that
// still report (409) and answered with the deleted application. A delete whose outcome
// is unknown is remembered (writeoutcome.go): a retry that finds the application gone
// answers what the first attempt would have (200 with it).
func (t *Translator) DeleteApplication(ctx context.Context, c Caller, id int64) (*restv2.ApplicationShow, error) {
	known := false
	var edits []nameindex.Edit
	defer func() { t.wroteApps(c, known, edits...) }()
	key := c.cacheKey("delete-attempt", strconv.FormatInt(id, 10))
	v, err := t.once(ctx, key, "", false, func(ctx context.Context, prev state.Previous) (any, error, bool, int64) {
		app, err := t.application(ctx, c, id)
		if err != nil {
			var ve *restv2.Error
			if remembered, ok := prev.Memo.(*restv2.ApplicationShow); ok && errors.As(err, &ve) && ve.Status == restv2.StatusNotFound {
				return remembered, nil, false, 0 // the unknown attempt deleted it
			}
			return nil, err, !prev.Sent.IsZero(), 0
		}
		if app.Reporting {
			return nil, errStillReporting(), false, 0
		}
		show := &restv2.ApplicationShow{Application: *app}
		resp, err := ng.AppDelete(ctx, t.client, AppGUID(c.AccountID, DomainAPM, id))
		if err != nil {
			var ge *ng.Error
			if errors.As(err, &ge) {
				for _, e := range ge.Errors {
					if strings.Contains(strings.ToLower(e.Message), "reporting") {
						return nil, errStillReporting(), false, 0
					}
				}
			}
			if outcomeUnknown(err) {
				return show, appWriteError(err, id, "application delete"), true, 1
			}
			return nil, appWriteError(err, id, "application delete"), false, 0
		}
		if resp.AgentApplicationDelete == nil || !resp.AgentApplicationDelete.Success {
			return nil, restv2.Unprocessable("The application was not deleted"), false, 0
		}
		return show, nil, false, 0
	})
	if err != nil {
		var ve *restv2.Error
		known = errors.As(err, &ve) && (ve.Status == restv2.StatusNotFound || ve.Status == restv2.StatusConflict) // nothing was deleted
		return nil, err
	}
	known, edits = true, []nameindex.Edit{{Entry: nameindex.Entry{ID: id}, Removed: true}}
	return v.(*restv2.ApplicationShow), nil
}

func errStillReporting() *restv2.Error {
	return restv2.Conflict("Cannot delete an application that is still reporting data.")
}

func appWriteError(err error, id int64, what string) error {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return err
	}
	check := fmt.Sprintf("GET /v2/applications/%d.json", id)
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
		return restv2.Unprocessable("Validation error occurred when updating the application", msg)
	}
	return err
}

// settingsError is one error of an agentApplicationSettingsUpdate answer.
type settingsError interface {
	GetErrorClass() *ng.AgentApplicationSettingsUpdateErrorClass
	GetField() *string
	GetDescription() *string
}

// appUpdateProblems is REST's error for the settings errors an AppUpdate answered (nil
// when there are none).
func appUpdateProblems(apm *ng.AppUpdateApmAgentApplicationSettingsUpdateResult, browser *ng.AppUpdateBrowserAgentApplicationSettingsUpdateResult) error {
	var errs []settingsError
	if apm != nil {
		for _, e := range apm.Errors {
			if e != nil {
				errs = append(errs, e)
			}
		}
	}
	if browser != nil {
		for _, e := range browser.Errors {
			if e != nil {
				errs = append(errs, e)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	problems := make([]string, 0, len(errs))
	var class ng.AgentApplicationSettingsUpdateErrorClass
	for _, e := range errs {
		problems = append(problems, deref(e.GetField())+": "+deref(e.GetDescription()))
		class = deref(e.GetErrorClass())
	}
	switch class {
	case ng.AgentApplicationSettingsUpdateErrorClassAccessDenied:
		return restv2.Forbidden("New Relic API access has not been enabled", problems...)
	case ng.AgentApplicationSettingsUpdateErrorClassNotFound:
		return ErrApplicationNotFound()
	}
	return restv2.Unprocessable("Validation error occurred when updating the application", problems...)
}

// enabledBrowserWait is the Retry-After of an end user Apdex threshold whose browser
// application, just created by the same update, NerdGraph does not show yet.
const enabledBrowserWait = 5 * time.Second

// setEnabledBrowserApdex sets the end user Apdex threshold of the browser application
// the same update just created by switching real user monitoring on: a read finds it
// (one round trip) and a second update sets it (one more). While NerdGraph does not show
// the new browser application yet (entities are indexed asynchronously) the answer is
// 503 with Retry-After, saying what was applied: the same PUT again finds real user
// monitoring on and sends only the threshold, so nothing is applied twice.
func (t *Translator) setEnabledBrowserApdex(ctx context.Context, c Caller, id int64, guid string, v float64) error {
	_, b, err := t.applicationWithBrowser(ctx, c, id)
	if err != nil {
		return fmt.Errorf("application %d after switching real user monitoring on: %w", id, err)
	}
	if b == nil || b.appID == 0 {
		return &retryLater{ve: restv2.Unavailable("Real user monitoring was switched on (and the other settings applied), " +
			"but its browser application is not readable yet: send the same request again to set end_user_apdex_threshold"),
			after: enabledBrowserWait}
	}
	settings := ng.AgentApplicationSettingsUpdateInput{BrowserConfig: &ng.AgentApplicationSettingsBrowserConfigInput{ApdexTarget: &v}}
	loader := BrowserLoader
	resp, err := ng.AppUpdate(ctx, t.client, guid, ng.AgentApplicationSettingsUpdateInput{}, false,
		AppGUID(c.AccountID, DomainBrowser, b.appID), settings, true, ng.AgentApplicationBrowserSettingsInput{LoaderType: &loader}, false)
	if err != nil {
		return appWriteError(err, id, "application update")
	}
	return appUpdateProblems(resp.Apm, resp.Browser)
}
