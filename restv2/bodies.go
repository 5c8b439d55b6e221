package restv2

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
)

// Request bodies of the REST v2 writes, as REST accepted them: each Decode function
// reads one resource's body into its input (pointer fields nil when not sent), with
// DecodeJSON's lenient rules, and answers a body it cannot use with the v2 error REST
// gave. The deployment body is in deploymentbody.go, the NRQL condition body in
// conditionbody.go.

// bodyError is the v2 error for a JSON body that did not decode: 400 when it is not
// JSON at all, else 422 with title (valid JSON holding a value of the wrong kind, such
// as "enabled": "yes"), naming the value in the message.
func bodyError(body []byte, err error, title string) *Error {
	var se *json.SyntaxError
	if errors.As(err, &se) || !json.Valid(bytes.TrimSpace(body)) {
		return BadRequest("The request body is not valid JSON: " + err.Error())
	}
	return Unprocessable(title, err.Error())
}

// ApplicationUpdate is a PUT /v2/applications/{id} body; nil fields were not sent.
// use_server_side_config is read-only in REST v2 and ignored.
type ApplicationUpdate struct {
	Name                     *string
	AppApdexThreshold        *float64
	EndUserApdexThreshold    *float64
	EnableRealUserMonitoring *bool
}

// applicationBody is REST's PUT body, JSON or XML; unknown fields are ignored and
// use_server_side_config (read-only) is accepted and dropped.
type applicationBody struct {
	Name     *string `json:"name" xml:"name"`
	Settings *struct {
		AppApdexThreshold        *float64 `json:"app_apdex_threshold" xml:"app_apdex_threshold"`
		EndUserApdexThreshold    *float64 `json:"end_user_apdex_threshold" xml:"end_user_apdex_threshold"`
		EnableRealUserMonitoring *bool    `json:"enable_real_user_monitoring" xml:"enable_real_user_monitoring"`
		UseServerSideConfig      *bool    `json:"use_server_side_config" xml:"use_server_side_config"`
	} `json:"settings" xml:"settings"`
}

// DecodeApplicationUpdate reads {"application":{...}} or <application>...</application>;
// an apdex threshold of 0 or less is a 422.
func DecodeApplicationUpdate(body []byte) (ApplicationUpdate, error) {
	var in ApplicationUpdate
	body = bytes.TrimSpace(body)
	var b applicationBody
	switch {
	case len(body) == 0:
		return in, Unprocessable(`The request body needs an "application" object`)
	case body[0] == '<':
		var x struct {
			XMLName xml.Name `xml:"application"`
			applicationBody
		}
		if err := xml.Unmarshal(body, &x); err != nil {
			return in, BadRequest("The request body is not a valid <application> XML document: " + err.Error())
		}
		b = x.applicationBody
	default:
		var j struct {
			Application *applicationBody `json:"application"`
		}
		if err := DecodeJSON(body, &j); err != nil {
			return in, bodyError(body, err, "Validation error occurred when updating the application")
		}
		if j.Application == nil {
			return in, Unprocessable(`The request body needs an "application" object`)
		}
		b = *j.Application
	}
	in.Name = b.Name
	if s := b.Settings; s != nil {
		in.AppApdexThreshold, in.EndUserApdexThreshold, in.EnableRealUserMonitoring = s.AppApdexThreshold, s.EndUserApdexThreshold, s.EnableRealUserMonitoring
	}
	for _, v := range []*float64{in.AppApdexThreshold, in.EndUserApdexThreshold} {
		if v != nil && *v <= 0 {
			return in, Unprocessable("Validation error occurred when updating the application", "Apdex thresholds must be positive")
		}
	}
	return in, nil
}

// PolicyInput is a REST {"policy":{...}} body; nil fields were not sent.
type PolicyInput struct {
	Name               *string
	IncidentPreference *string
}

// DecodePolicy reads {"policy":{"name":...,"incident_preference":...}}.
func DecodePolicy(body []byte) (PolicyInput, error) {
	var b struct {
		Policy *struct {
			Name               *string `json:"name"`
			IncidentPreference *string `json:"incident_preference"`
		} `json:"policy"`
	}
	if err := DecodeJSON(bytes.TrimSpace(body), &b); err != nil {
		return PolicyInput{}, bodyError(body, err, "Validation or internal error occurred")
	}
	if b.Policy == nil {
		return PolicyInput{}, Unprocessable("Validation or internal error occurred", `the body needs a "policy" object`)
	}
	return PolicyInput{Name: b.Policy.Name, IncidentPreference: b.Policy.IncidentPreference}, nil
}

// DecodeBrowserApplication is the name a browser application create body gives:
// {"browser_application":{"name":...}} or the form browser_application[name] (in p).
func DecodeBrowserApplication(body []byte, p Params) (string, error) {
	var b struct {
		BrowserApplication *struct {
			Name string `json:"name"`
		} `json:"browser_application"`
	}
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] != '{' {
		// A form body (filter[...]) on POST is a list call, as Ansible sends for
		// applications; browser_application[name] creates.
		if name, ok := p.Get("browser_application[name]"); ok {
			return name, nil
		}
	} else if err := DecodeJSON(body, &b); err != nil {
		return "", bodyError(body, err, "Validation error occurred while creating the browser application")
	}
	if b.BrowserApplication == nil {
		return "", Unprocessable(`The request body needs a "browser_application" object with a name`)
	}
	return b.BrowserApplication.Name, nil
}

// DecodeMobileApplication is the name a mobile application create body gives:
// {"mobile_application":{"name":...}}.
func DecodeMobileApplication(body []byte) (string, error) {
	var b struct {
		MobileApplication *struct {
			Name string `json:"name"`
		} `json:"mobile_application"`
	}
	if err := DecodeJSON(bytes.TrimSpace(body), &b); err != nil {
		return "", bodyError(body, err, "Validation error occurred while creating the mobile application")
	}
	if b.MobileApplication == nil {
		return "", Unprocessable(`The request body needs a "mobile_application" object with a name`)
	}
	return b.MobileApplication.Name, nil
}
