package migrate

import (
	"net/url"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
)

// TestExplainLinks: every route's sample link parses back to its route's sample.
func TestExplainLinks(t *testing.T) {
	for _, rt := range gateway.Routes() {
		link := explainLink(rt.Name, 5)
		u, err := url.Parse(link)
		if err != nil || u.Path != "/v2bridge/explain" {
			t.Fatalf("%s: %q %v", rt.Name, link, err)
		}
		s, _ := SampleRequest(rt.Name)
		if u.Query().Get("request") != s.Line || u.Query().Get("body") != s.Body || u.Query().Get("account") != "5" {
			t.Errorf("%s: %q", rt.Name, link)
		}
	}
	if explainLink("shed", 0) != "" {
		t.Error("a link for a name outside the route table")
	}
}

// TestExplainLinkAccount: a sample link names the account only when one is known
// (not account 0).
func TestExplainLinkAccount(t *testing.T) {
	if link := explainLink("applications.list", 0); link == "" || strings.Contains(link, "account=") {
		t.Fatalf("link without an account: %q", link)
	}
	if link := explainLink("applications.list", 1); !strings.HasSuffix(link, "&account=1") {
		t.Fatalf("link for account 1: %q", link)
	}
}
