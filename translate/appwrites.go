package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// AppUpdateInput is a parsed PUT /v2/applications/{id} body; nil fields were not sent.
// use_server_side_config is read-only in REST v2 and ignored.
type AppUpdateInput struct {
	Name                     *string
	AppApdexThreshold        *float64
	EndUserApdexThreshold    *float64
	EnableRealUserMonitoring *bool
}

// BrowserLoader is the loader type used when a PUT switches real user monitoring on for
// an application without browser monitoring (REST v2 created Lite agents).
const BrowserLoader = ng.AgentApplicationBrowserLoaderLite

// UpdateApplication answers PUT /v2/applications/{id}: one read (current values, the
// browser application) and, when something changes, one mutation document with only the
// changed fields. The answer is the application with the changes applied. An update is
// idempotent by construction: a retry after an unknown outcome (502/504 "may have been
// recorded") reads the values again and sends only what still differs, so an applied
// first attempt is neither applied twice nor misreported (tests/e2e/writes_retry_test.go).
func (t *Translator) UpdateApplication(ctx context.Context, c Caller, id int64, in AppUpdateInput) (*v2.ApplicationShow, error) {
	defer t.wroteAccount(c) // also after a failed write: it may have half applied
	app, browser, err := t.applicationWithBrowser(ctx, c, id)
	if err != nil {
		return nil, err
	}
	guid := AppGUID(c.AccountID, DomainAPM, id)
	var apm, br ng.AgentApplicationSettingsUpdateInput
	updateApm, updateBrowser, enable := false, false, false
	if in.Name != nil && *in.Name != app.Name {
		if strings.TrimSpace(*in.Name) == "" {
			return nil, &v2.Error{Status: 422, Title: "Validation error occurred when updating the application", Messages: []string{"name must not be empty"}}
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
	if v := in.EndUserApdexThreshold; v != nil && (app.Settings.EndUserApdexThreshold == nil || *v != *app.Settings.EndUserApdexThreshold) {
		if browser == nil {
			return nil, &v2.Error{Status: 422, Title: "Validation error occurred when updating the application",
				Messages: []string{"end_user_apdex_threshold needs real user monitoring: set enable_real_user_monitoring to true"}}
		}
		br.BrowserConfig, updateBrowser = &ng.AgentApplicationSettingsBrowserConfigInput{ApdexTarget: v}, true
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
		return &v2.ApplicationShow{Application: *app}, nil
	}
	loader := BrowserLoader
	resp, err := ng.AppUpdate(ctx, t.client, guid, apm, updateApm, browserGUID, br, updateBrowser,
		ng.AgentApplicationBrowserSettingsInput{LoaderType: &loader}, enable)
	if err != nil {
		return nil, appWriteError(err, id, "application update")
	}
	var problems []string
	var class ng.AgentApplicationSettingsUpdateErrorClass
	if r := resp.Apm; r != nil {
		for _, e := range r.Errors {
			if e != nil {
				problems = append(problems, deref(e.Field)+": "+deref(e.Description))
				class = deref(e.ErrorClass)
			}
		}
	}
	if r := resp.Browser; r != nil {
		for _, e := range r.Errors {
			if e != nil {
				problems = append(problems, deref(e.Field)+": "+deref(e.Description))
				class = deref(e.ErrorClass)
			}
		}
	}
	if len(problems) > 0 {
		switch class {
		case ng.AgentApplicationSettingsUpdateErrorClassAccessDenied:
			return nil, &v2.Error{Status: 403, Title: "New Relic API access has not been enabled", Messages: problems}
		case ng.AgentApplicationSettingsUpdateErrorClassNotFound:
			return nil, ErrApplicationNotFound()
		}
		return nil, &v2.Error{Status: 422, Title: "Validation error occurred when updating the application", Messages: problems}
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
	return &v2.ApplicationShow{Application: *app}, nil
}

// DeleteApplication answers DELETE /v2/applications/{id}: REST refused applications that
// still report (409) and answered with the deleted application. A delete whose outcome
// is unknown is remembered (attempts.go): a retry that finds the application gone
// answers what the first attempt would have (200 with it).
func (t *Translator) DeleteApplication(ctx context.Context, c Caller, id int64) (*v2.ApplicationShow, error) {
	defer t.wroteAccount(c)
	key := c.cacheKey("delete-attempt", strconv.FormatInt(id, 10))
	v, err := t.attempts.once(ctx, key, "", false, t.now, func(ctx context.Context, prev previous) (any, error, bool, int64) {
		app, err := t.application(ctx, c, id)
		if err != nil {
			var ve *v2.Error
			if remembered, ok := prev.memo.(*v2.ApplicationShow); ok && errors.As(err, &ve) && ve.Status == 404 {
				return remembered, nil, false, 0 // the unknown attempt deleted it
			}
			return nil, err, !prev.sent.IsZero(), 0
		}
		if app.Reporting {
			return nil, errStillReporting(), false, 0
		}
		show := &v2.ApplicationShow{Application: *app}
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
			return nil, &v2.Error{Status: 422, Title: "The application was not deleted"}, false, 0
		}
		return show, nil, false, 0
	})
	if err != nil {
		return nil, err
	}
	return v.(*v2.ApplicationShow), nil
}

func errStillReporting() *v2.Error {
	return &v2.Error{Status: 409, Title: "Cannot delete an application that is still reporting data."}
}

func appWriteError(err error, id int64, what string) error {
	var ge *ng.Error
	if !errors.As(err, &ge) {
		return err
	}
	check := fmt.Sprintf("GET /v2/applications/%d.json", id)
	switch ge.Kind {
	case ng.KindTimeout:
		return ErrWriteOutcomeUnknown(504, what, check)
	case ng.KindTransport, ng.KindServer:
		return ErrWriteOutcomeUnknown(502, what, check)
	case ng.KindInvalid:
		msg := "rejected by New Relic"
		if len(ge.Errors) > 0 {
			msg = ge.Errors[0].Message
		}
		return &v2.Error{Status: 422, Title: "Validation error occurred when updating the application", Messages: []string{msg}}
	}
	return err
}
