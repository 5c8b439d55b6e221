package restv2_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/v2bridge/v2bridge/restv2"
)

const xmlDecl = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name       string
		give       restv2.Document
		wantStatus int
		wantJSON   string
		wantXML    string
	}{
		{
			name: "no api key", give: restv2.ErrNoAPIKey(), wantStatus: 401,
			wantJSON: `{"error":{"title":"No API key specified"}}`,
			wantXML:  xmlDecl + "<error>\n  <title>No API key specified</title>\n</error>\n",
		},
		{
			name: "invalid api key", give: restv2.ErrInvalidAPIKey(), wantStatus: 401,
			wantJSON: `{"error":{"title":"Invalid API key"}}`,
			wantXML:  xmlDecl + "<error>\n  <title>Invalid API key</title>\n</error>\n",
		},
		{
			name: "api access", give: restv2.ErrAPIAccessNotEnabled(), wantStatus: 403,
			wantJSON: `{"error":{"title":"New Relic API access has not been enabled"}}`,
			wantXML:  xmlDecl + "<error>\n  <title>New Relic API access has not been enabled</title>\n</error>\n",
		},
		{
			name: "server", give: restv2.ErrServer(), wantStatus: 500,
			wantJSON: `{"error":{"title":"A server error occurred, please contact New Relic support"}}`,
			wantXML:  xmlDecl + "<error>\n  <title>A server error occurred, please contact New Relic support</title>\n</error>\n",
		},
		{
			name: "not found", give: restv2.NotFound(restv2.TitleApplicationNotFound), wantStatus: 404,
			wantJSON: `{"error":{"title":"No Application found with the given ID"}}`,
			wantXML:  xmlDecl + "<error>\n  <title>No Application found with the given ID</title>\n</error>\n",
		},
		{
			name: "bad request", give: restv2.BadRequest("Invalid parameter 'page': \"0\" is not a page number"), wantStatus: 400,
			wantJSON: `{"error":{"title":"Invalid parameter 'page': \"0\" is not a page number"}}`,
			wantXML:  xmlDecl + "<error>\n  <title>Invalid parameter 'page': \"0\" is not a page number</title>\n</error>\n",
		},
		{
			name:       "unprocessable with messages",
			give:       restv2.Unprocessable("Validation error occurred when updating the application", "<field> <problem>", "b & c"),
			wantStatus: 422,
			wantJSON:   `{"error":{"title":"Validation error occurred when updating the application","messages":["<field> <problem>","b & c"]}}`,
			wantXML: xmlDecl + "<error>\n  <title>Validation error occurred when updating the application</title>\n" +
				"  <messages>\n    <message>&lt;field&gt; &lt;problem&gt;</message>\n    <message>b &amp; c</message>\n  </messages>\n</error>\n",
		},
		{
			name: "empty messages omitted", give: &restv2.Error{Status: 422, Title: "Invalid channel type", Messages: []string{}},
			wantStatus: 422,
			wantJSON:   `{"error":{"title":"Invalid channel type"}}`,
			wantXML:    xmlDecl + "<error>\n  <title>Invalid channel type</title>\n</error>\n",
		},
		{
			name: "429 empty body", give: restv2.EmptyDocument{}, wantStatus: 0,
			wantJSON: `{}`,
			wantXML:  xmlDecl + "<hash/>\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if e, ok := tt.give.(*restv2.Error); ok && e.Status != tt.wantStatus {
				t.Errorf("Status = %d, want %d", e.Status, tt.wantStatus)
			}
			if got := string(restv2.JSON(nil, tt.give)); got != tt.wantJSON {
				t.Errorf("JSON = %s\nwant   %s", got, tt.wantJSON)
			}
			if got := string(restv2.XML(nil, tt.give)); got != tt.wantXML {
				t.Errorf("XML = %q\nwant  %q", got, tt.wantXML)
			}
		})
	}
}

func TestErrorIsAnError(t *testing.T) {
	tests := []struct {
		give *restv2.Error
		want string
	}{
		{restv2.ErrNoAPIKey(), "No API key specified"},
		{restv2.Unprocessable("Validation failed", "a", "b"), "Validation failed: a, b"},
	}
	for _, tt := range tests {
		err := fmt.Errorf("update application 42: %w", tt.give)
		var ve *restv2.Error
		if !errors.As(err, &ve) || ve != tt.give {
			t.Fatalf("errors.As did not find the *restv2.Error in %v", err)
		}
		if got := tt.give.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestConstructorsReturnFreshValues(t *testing.T) {
	a, b := restv2.ErrNoAPIKey(), restv2.ErrNoAPIKey()
	a.Title = "changed"
	if b.Title != restv2.TitleNoAPIKey {
		t.Errorf("constructors share state: %q", b.Title)
	}
}
