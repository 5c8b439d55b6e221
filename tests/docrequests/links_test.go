package docrequests

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

// link is one entry of a Link header as a client's own parser reads it.
type link struct{ url, rel string }

// linkParser is a client's own reading of a Link header.
type linkParser struct {
	name  string
	parse func(header string) []link
}

// linkParsers are the Link parsers of REST v2 clients that read Link headers
// (Wavefront's and NeoLoad's New Relic integrations and the others below), written the
// way each one is.
func linkParsers() []linkParser {
	return []linkParser{
		{
			// Wavefront's New Relic integration: split on exactly ", " and "; ", rel compared
			// literally with `rel="next"`, and `page` read out of every link.
			"wavefront", func(h string) []link {
				var out []link
				for _, part := range strings.Split(h, ", ") {
					u, rel, ok := strings.Cut(part, "; ")
					if !ok {
						continue
					}
					for _, r := range []string{"first", "prev", "next", "last"} {
						if rel == `rel="`+r+`"` {
							out = append(out, link{strings.TrimSuffix(strings.TrimPrefix(u, "<"), ">"), r})
						}
					}
				}
				return out
			},
		},
		{
			// nr-account-migration: split on ",", then ";", and look for "next" in the rel.
			"nr-account-migration", func(h string) []link {
				var out []link
				for _, part := range strings.Split(h, ",") {
					fields := strings.Split(part, ";")
					if len(fields) < 2 {
						continue
					}
					u := strings.TrimSpace(fields[0])
					u = strings.TrimSuffix(strings.TrimPrefix(u, "<"), ">")
					for _, r := range []string{"first", "prev", "next", "last"} {
						if strings.Contains(fields[1], r) {
							out = append(out, link{u, r})
						}
					}
				}
				return out
			},
		},
	}
}

// wellFormed is the format REST v2 sent: `<absolute url>; rel="x"` joined by ", ".
var wellFormed = regexp.MustCompile(`^<http://[^<>, ]+>; rel="(first|prev|next|last)"(, <http://[^<>, ]+>; rel="(first|prev|next|last)")*$`)

// Following rel="next" with each known client's own parser reaches every application
// exactly once; Wavefront's parallel fetch of pages 2..last (page read out of every
// link) gets the same set.
func TestLinkHeaderAsClientsParseIt(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	get := func(t *testing.T, u string) (http.Header, []int64) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Applications []struct {
				ID int64 `json:"id"`
			} `json:"applications"`
		}
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", u, resp.StatusCode)
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		ids := make([]int64, 0, len(body.Applications))
		for _, a := range body.Applications {
			ids = append(ids, a.ID)
		}
		return resp.Header, ids
	}
	first := h.Gateway.URL + "/v2/applications.json?exclude_links=true"
	for _, p := range linkParsers() {
		t.Run(p.name+" follows next", func(t *testing.T) {
			seen := map[int64]bool{}
			u := first
			for pages := 0; u != ""; pages++ {
				if pages > 5 {
					t.Fatal("more than 5 pages: the last page still links a next one")
				}
				hdr, ids := get(t, u)
				for _, id := range ids {
					if seen[id] {
						t.Fatalf("application %d on two pages", id)
					}
					seen[id] = true
				}
				if l := hdr.Get("Link"); l != "" && !wellFormed.MatchString(l) {
					t.Fatalf("Link header not in REST v2's format: %q", l)
				}
				u = ""
				for _, l := range p.parse(hdr.Get("Link")) {
					if l.rel == "next" {
						u = l.url
					}
				}
			}
			if len(seen) != 264 {
				t.Fatalf("%d applications reached, want all 264", len(seen))
			}
		})
	}
	t.Run("wavefront fetches pages 2..last", func(t *testing.T) {
		hdr, ids := get(t, first)
		last := 0
		for _, l := range linkParsers()[0].parse(hdr.Get("Link")) {
			pu, err := url.Parse(l.url)
			if err != nil {
				t.Fatal(err)
			}
			page, err := strconv.Atoi(pu.Query().Get("page"))
			if err != nil {
				t.Fatalf("link %q has no page number: %v", l.url, err)
			}
			if l.rel == "last" {
				last = page
			}
		}
		if last != 2 {
			t.Fatalf("rel=\"last\" names page %d, want 2", last)
		}
		total := len(ids)
		for page := 2; page <= last; page++ {
			_, more := get(t, first+"&page="+strconv.Itoa(page))
			total += len(more)
		}
		if total != 264 {
			t.Fatalf("%d applications over pages 1..%d, want 264", total, last)
		}
	})
}
