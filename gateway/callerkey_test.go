package gateway

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

// status is the v2 status of err (0 when none).
func status(err error) int {
	var ve *restv2.Error
	if errors.As(err, &ve) {
		return ve.Status
	}
	return 0
}

// presentedKey: the one key of the key headers (blanks and repeats of it do not count)
// and the header it came in first; two different keys are a 401 naming both headers.
func TestPresentedKey(t *testing.T) {
	tests := []struct {
		hdr          http.Header
		key, header  string
		conflictText string
	}{
		{http.Header{"X-Api-Key": {"a"}}, "a", "X-Api-Key", ""},
		{http.Header{"Api-Key": {" b "}}, "b", "Api-Key", ""},
		{http.Header{"X-License-Key": {"c"}}, "c", "X-License-Key", ""},
		{http.Header{"Api-Key": {"a"}, "X-Api-Key": {"a"}}, "a", "X-Api-Key", ""},
		{http.Header{"Api-Key": {"  "}, "X-Api-Key": {"x"}}, "x", "X-Api-Key", ""},
		{http.Header{}, "", "", ""},
		{http.Header{"Api-Key": {"a"}, "X-Api-Key": {"b"}}, "", "", "X-Api-Key and Api-Key"},
		{http.Header{"X-Api-Key": {"a", "b"}}, "", "", "repeated X-Api-Key headers"},
		{http.Header{"X-Api-Key": {"a"}, "X-License-Key": {"b"}}, "", "", "X-Api-Key and X-License-Key"},
	}
	for _, tt := range tests {
		key, header, err := presentedKey(tt.hdr)
		if key != tt.key || header != tt.header {
			t.Errorf("presentedKey(%v) = %q in %q, want %q in %q", tt.hdr, key, header, tt.key, tt.header)
		}
		switch {
		case tt.conflictText == "" && err != nil:
			t.Errorf("presentedKey(%v): %v", tt.hdr, err)
		case tt.conflictText != "" && (status(err) != http.StatusUnauthorized || !strings.Contains(err.Error(), tt.conflictText)):
			t.Errorf("presentedKey(%v): %v, want a 401 naming %q", tt.hdr, err, tt.conflictText)
		}
	}
}

// accountHeader: the one account the headers name, as documented; two accounts are a 400.
func TestAccountHeader(t *testing.T) {
	tests := []struct {
		hdr         http.Header
		value, name string
		bad         bool
	}{
		{http.Header{"X-Account-Id": {"1"}}, "1", "X-Account-ID", false},
		{http.Header{"Newrelic-Account-Id": {"2"}}, "2", "NewRelic-Account-Id", false},
		{http.Header{"X-Account-Id": {"1", "1"}, "Newrelic-Account-Id": {"1"}}, "1", "X-Account-ID", false},
		{http.Header{"X-Account-Id": {"1", "2"}}, "", "", true},
		{http.Header{"X-Account-Id": {"1"}, "Newrelic-Account-Id": {"2"}}, "", "", true},
	}
	for _, tt := range tests {
		v, name, err := accountHeader(tt.hdr)
		if v != tt.value || name != tt.name || (err != nil) != tt.bad || (err != nil && status(err) != http.StatusBadRequest) {
			t.Errorf("accountHeader(%v) = %q, %q, %v", tt.hdr, v, name, err)
		}
	}
}
