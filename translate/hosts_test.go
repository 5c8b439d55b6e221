package translate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"
	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// The application hosts and instances: the summary formulas over the 10-minute window,
// web calls before background ones, the filters, paging, the 404s and the host-name
// lookup. NerdGraph is an opFake answering AppHosts for application 7 of account 1.

func hostsFake(hostRows, instanceRows []map[string]any, reporting bool) *opFake {
	f := &opFake{}
	f.answer = func(op string, vars map[string]any) (any, error) {
		if op != "AppHosts" {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		acct := 1
		if vars["guid"] != AppGUID(1, DomainAPM, 7) {
			acct = 2
		}
		return map[string]any{"actor": map[string]any{
			"entity": map[string]any{"__typename": "ApmApplicationEntity", "guid": vars["guid"], "accountId": acct, "applicationId": 7,
				"name": "App", "language": "JAVA", "reporting": reporting, "alertSeverity": "WARNING"},
			"account": map[string]any{"hosts": map[string]any{"results": hostRows}, "instances": map[string]any{"results": instanceRows}},
		}}, nil
	}
	return f
}

// hostStats.summary: response time in ms over web calls (background ones when there are
// none), throughput per minute of the 10-minute window, error rate as a percent of all
// calls, Apdex (s + t/2) / (s + t + f), each rounded as REST showed them (figures.go).
func TestHostSummary(t *testing.T) {
	tests := []struct {
		name string
		give hostStats
		want restv2.HostSummary
	}{
		{"web", hostStats{WebC: 30, WebS: 1.5, OtherC: 10, OtherS: 9, Errors: 2, ApdexS: 6, ApdexT: 3, ApdexF: 1, Instance: 2},
			restv2.HostSummary{ResponseTime: 50, Throughput: 3, ErrorRate: 5, ApdexScore: 0.75, InstanceCount: 2}},
		{"background only", hostStats{OtherC: 20, OtherS: 3, Errors: 1},
			restv2.HostSummary{ResponseTime: 150, Throughput: 2, ErrorRate: 5}},
		// three significant digits, Apdex two decimals (figures.go)
		{"rounding", hostStats{WebC: 3, WebS: 1.23456, Errors: 1, ApdexS: 1, ApdexF: 2},
			restv2.HostSummary{ResponseTime: 412, Throughput: 0.3, ErrorRate: 33.3, ApdexScore: 0.33}},
		{"small", hostStats{WebC: 3, WebS: 0.0012345, Errors: 1, ApdexS: 1, ApdexF: 2},
			restv2.HostSummary{ResponseTime: 0.412, Throughput: 0.3, ErrorRate: 33.3, ApdexScore: 0.33}},
		{"nothing", hostStats{}, restv2.HostSummary{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.give.summary(); got != tt.want {
				t.Fatalf("%+v, want %+v", got, tt.want)
			}
		})
	}
}

// appHosts, Hosts and Host: hosts sorted by name with their instances, instances by id,
// filter[hostname] and filter[ids], pages, 404s.
func TestAppHosts(t *testing.T) {
	hostRows := []map[string]any{
		{"facet": "web-b", "host": "web-b", "web_c": 10.0, "web_s": 1.0, "instances": 2.0},
		{"facet": "web-a", "host": "web-a", "web_c": 20.0, "web_s": 1.0, "instances": 1.0},
		{"facet": "", "host": ""}, // no host: skipped
	}
	instanceRows := []map[string]any{
		{"facet": []any{"30", "web-b"}, "realAgentId": "30", "host": "web-b", "web_c": 5.0, "web_s": 1.0},
		{"facet": []any{"10", "web-b"}, "realAgentId": 10.0, "host": "web-b", "web_c": 5.0, "web_s": 1.0},
		{"facet": []any{"20", "web-a"}, "realAgentId": "20", "host": "web-a", "web_c": 20.0, "web_s": 1.0},
		{"facet": []any{"x", "web-a"}, "realAgentId": "x", "host": "web-a"}, // not an id: skipped
	}
	tr := New(hostsFake(hostRows, instanceRows, true), Options{})
	c := Caller{AccountID: 1}
	ctx := context.Background()
	l, p, err := tr.Hosts(ctx, c, 7, false, HostListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Hosts) != 2 || l.Hosts[0].Host != "web-a" || l.Hosts[1].Host != "web-b" || p != (Paging{Page: 1, Last: 1}) {
		t.Fatalf("hosts %+v, %+v", l.Hosts, p)
	}
	b := l.Hosts[1]
	if b.ID != HostID(1, 7, "web-b") || fmt.Sprint(b.InstanceIDs) != "[10 30]" || b.ApplicationName != "App" || b.Language != "java" ||
		b.HealthStatus != "orange" || b.Summary.InstanceCount != 2 || b.Summary.Throughput != 1 || b.Instance {
		t.Errorf("host web-b %+v", b)
	}
	il, _, err := tr.Hosts(ctx, c, 7, true, HostListRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, h := range il.Hosts {
		ids = append(ids, h.ID)
		if !h.Instance || h.Summary.InstanceCount != 1 || h.HostID != HostID(1, 7, h.Host) {
			t.Errorf("instance %+v", h)
		}
	}
	if fmt.Sprint(ids) != "[10 20 30]" || !il.Instance {
		t.Errorf("instances %v", ids)
	}
	fl, _, err := tr.Hosts(ctx, c, 7, true, HostListRequest{Hostname: "-B", IDs: []int64{30, 20}})
	if err != nil || len(fl.Hosts) != 1 || fl.Hosts[0].ID != 30 {
		t.Errorf("filtered instances %+v, %v", fl, err)
	}
	pl, pp, err := tr.Hosts(ctx, c, 7, false, HostListRequest{Page: 2})
	if err != nil || len(pl.Hosts) != 0 || pp != (Paging{Page: 2, Last: 1}) {
		t.Errorf("page 2: %+v %+v %v", pl, pp, err)
	}
	if h, err := tr.Host(ctx, c, 7, 20, true); err != nil || h.Host.Host != "web-a" {
		t.Errorf("instance 20: %+v, %v", h, err)
	}
	var ve *restv2.Error
	if _, err := tr.Host(ctx, c, 7, 20, false); !errors.As(err, &ve) || ve.Status != 404 || !strings.Contains(ve.Title, "Host") {
		t.Errorf("host 20: %v", err)
	}
	if _, err := tr.Host(ctx, c, 7, HostID(1, 7, "web-a"), true); !errors.As(err, &ve) || !strings.Contains(ve.Title, "Instance") {
		t.Errorf("instance with a host's id: %v", err)
	}
	if _, _, err := tr.Hosts(ctx, c, 8, false, HostListRequest{}); !errors.As(err, &ve) || ve.Status != 404 {
		t.Errorf("another account's application: %v", err)
	}
	name, err := tr.HostName(ctx, c, 7, HostID(1, 7, "web-b"))
	if err != nil || name != "web-b" {
		t.Errorf("host name %q, %v", name, err)
	}
	if _, err := tr.HostName(ctx, c, 7, 12345); !errors.As(err, &ve) || ve.Status != 404 {
		t.Errorf("unknown host id: %v", err)
	}
}

// A full answer (5000 facets) of hosts or of instances is declared: 4999 rows are not.
func TestAppHostsCap(t *testing.T) {
	for _, n := range []int{MaxFacets - 1, MaxFacets, -(MaxFacets - 1), -MaxFacets} { // negative: instance rows
		rows := make([]map[string]any, max(n, -n))
		for i := range rows {
			rows[i] = map[string]any{"facet": "h", "host": ""}
		}
		hostRows, instanceRows := rows, []map[string]any(nil)
		if n < 0 {
			hostRows, instanceRows = nil, rows
		}
		tr := New(hostsFake(hostRows, instanceRows, false), Options{})
		var notes Notes
		if _, _, err := tr.Hosts(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, 7, false, HostListRequest{}); err != nil {
			t.Fatal(err)
		}
		if got, want := notes.String() != "", n == MaxFacets || n == -MaxFacets; got != want {
			t.Errorf("%d rows: declared %v", n, got)
		}
	}
}

// The summaries count HostSummaryWindow (10 minutes) ending where the default metric
// data range ends (metricdata.IngestLag), inside an InventoryWindow (1 hour) read up to until.
func TestHostStatsWindows(t *testing.T) {
	until := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	q, err := hostStatsNRQL(7, "host", until)
	if err != nil {
		t.Fatal(err)
	}
	end := until.Add(-3 * time.Minute)
	ten := "timestamp >= " + strconv.FormatInt(end.Add(-10*time.Minute).UnixMilli(), 10) + " AND timestamp < " +
		strconv.FormatInt(end.UnixMilli(), 10) + ")"
	rng := "SINCE " + strconv.FormatInt(until.Add(-time.Hour).UnixMilli(), 10) + " UNTIL " + strconv.FormatInt(until.UnixMilli(), 10)
	if strings.Count(q, ten) != 8 || !strings.Contains(q, rng) || !strings.Contains(q, "appId = 7 AND "+metricdata.Unscoped) || !strings.Contains(q, " FACET host ") {
		t.Fatalf("query %s", q)
	}
}

// The hosts of an application NerdGraph answers for another account, as another kind of
// entity, under another id or not at all are REST's 404, never another account's hosts.
func TestAppHostsEntityMustBeTheApplication(t *testing.T) {
	app := func(typename string, acct, id int) map[string]any {
		return map[string]any{"__typename": typename, "guid": AppGUID(1, DomainAPM, 7), "accountId": acct,
			"applicationId": id, "name": "App", "reporting": true}
	}
	for _, tt := range []struct {
		name   string
		entity any
		found  bool
	}{
		{"the application", app("ApmApplicationEntity", 1, 7), true},
		{"another account's", app("ApmApplicationEntity", 3, 7), false},
		{"a browser application", app("BrowserApplicationEntity", 1, 7), false},
		{"another application", app("ApmApplicationEntity", 1, 8), false},
		{"no entity", nil, false},
	} {
		f := &opFake{answer: func(string, map[string]any) (any, error) {
			return map[string]any{"actor": map[string]any{"entity": tt.entity,
				"account": map[string]any{"hosts": map[string]any{"results": []any{}}, "instances": map[string]any{"results": []any{}}}}}, nil
		}}
		_, _, err := New(f, Options{}).Hosts(context.Background(), Caller{AccountID: 1}, 7, false, HostListRequest{})
		var ve *restv2.Error
		if notFound := errors.As(err, &ve) && ve.Status == 404; notFound == tt.found || (tt.found && err != nil) {
			t.Errorf("%s: err = %v, want found %v", tt.name, err, tt.found)
		}
	}
}
