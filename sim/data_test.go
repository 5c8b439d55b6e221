package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/sim"
)

func TestDemoData(t *testing.T) {
	d := loadDemo(t)
	one, two := apps(t, d, acctOne), apps(t, d, acctTwo)
	if len(one) < 250 {
		t.Errorf("account %d has %d applications, want at least 250", acctOne, len(one))
	}
	if len(two) < 15 {
		t.Errorf("account %d has %d applications, want about 20", acctTwo, len(two))
	}
	langs, sevs := map[string]int{}, map[string]int{}
	notReporting, browsers := 0, 0
	names := map[string]bool{}
	for _, a := range one {
		langs[a.Language]++
		sevs[a.AlertSeverity]++
		names[a.Name] = true
		if !a.Reporting {
			notReporting++
		}
		if a.Browser != nil {
			browsers++
			if a.Browser.Loader == "" || a.Browser.ApdexTarget <= 0 {
				t.Errorf("%q: browser %+v", a.Name, a.Browser)
			}
		}
		if a.Reporting && (len(a.Instances) < 1 || len(a.Instances) > 4 || a.Summary == nil) {
			t.Errorf("%q: reporting with %d instances, summary %v", a.Name, len(a.Instances), a.Summary)
		}
		if a.ID < 100_000_000 || a.ID > 999_999_999 {
			t.Errorf("%q: id %d is not 9 digits", a.Name, a.ID)
		}
	}
	for _, l := range []string{"java", "ruby", "python", "nodejs", "php", "dotnet", "go"} {
		if langs[l] == 0 {
			t.Errorf("no %s application", l)
		}
	}
	for _, s := range []string{"CRITICAL", "WARNING", "NOT_ALERTING", "NOT_CONFIGURED"} {
		if sevs[s] == 0 {
			t.Errorf("no %s application", s)
		}
	}
	if notReporting == 0 {
		t.Error("every application reports")
	}
	if browsers < 25 || browsers > 40 {
		t.Errorf("%d browser applications, want about 30", browsers)
	}
	for _, n := range []string{"O'Reilly Books", `The "Quoted" App`, "api.example.com", "Billing (EU)", `C:\Services\Legacy Importer`, "Café Ünïcode", "日本語アプリ"} {
		if !names[n] {
			t.Errorf("no application named %q", n)
		}
	}
	shared := 0
	for _, a := range two {
		if names[a.Name] {
			shared++
		}
	}
	if shared < 3 {
		t.Errorf("%d account-two names also in account one, want several", shared)
	}
}

func TestParseDataErrors(t *testing.T) {
	const valid = `
users:
  - key: K
    accounts: [1]
accounts:
  - id: 1
    name: One
    browserLicenseKey: NRJS-1
    apmApplications:
      - id: 100000001
        name: App
        language: java
        reporting: true
        alertSeverity: NOT_ALERTING
        lastReportingChangeAt: 2026-10-03T08:17:00Z
        apdexTarget: 0.5
        summary: {apdexScore: 0.9, errorRate: 1, webResponseTimeAverage: 0.1, webThroughput: 10, nonWebResponseTimeAverage: 0, nonWebThroughput: 0}
        instances: [{id: 1, host: h1}]
        browser: {id: 100000002, apdexTarget: 7, loader: SPA}
`
	d, err := sim.ParseData([]byte(valid))
	if err != nil {
		t.Fatalf("valid data: %v", err)
	}
	if got := d.Accounts[0].APMApplications[0].LastReportingChangeAt; !got.Equal(time.Date(2026, 10, 3, 8, 17, 0, 0, time.UTC)) {
		t.Errorf("lastReportingChangeAt = %v", got)
	}
	tests := []struct {
		name    string
		old     string
		new     string
		wantErr string
	}{
		{name: "unknown key", old: "    name: One\n", new: "    name: One\n    colour: red\n", wantErr: "field colour not found"},
		{name: "bad severity", old: "alertSeverity: NOT_ALERTING", new: "alertSeverity: RED", wantErr: `accounts[0].apmApplications[0].alertSeverity: "RED" is not one of`},
		{name: "bad language", old: "language: java", new: "language: cobol", wantErr: "accounts[0].apmApplications[0].language"},
		{name: "duplicate application id", old: "id: 100000002", new: "id: 100000001", wantErr: "accounts[0].apmApplications[0].browser.id: 100000001 already used by accounts[0].apmApplications[0].id"},
		{name: "id too large", old: "id: 100000001", new: "id: 3000000000", wantErr: "not a positive 32-bit application id"},
		{name: "unknown account of a user", old: "accounts: [1]", new: "accounts: [1, 2]", wantErr: "users[0].accounts[1]: no account 2"},
		{name: "own account out of the user's accounts", old: "accounts: [1]", new: "accounts: [1]\n    account: 3", wantErr: "users[0].account: 3 is not one of its accounts"},
		{name: "duplicate key", old: "users:\n", new: "users:\n  - key: K\n    accounts: [1]\n", wantErr: "users[1].key: already used by users[0]"},
		{name: "summary of a non-reporting app", old: "reporting: true", new: "reporting: false", wantErr: "summary: must be absent when reporting is false"},
		{name: "reserved tag", old: "apdexTarget: 0.5", new: "apdexTarget: 0.5\n        tags: {language: [go]}", wantErr: "tags.language: reserved"},
		{name: "bad loader", old: "loader: SPA", new: "loader: FULL", wantErr: "browser.loader"},
		{name: "apdex out of range", old: "apdexScore: 0.9", new: "apdexScore: 1.5", wantErr: "summary.apdexScore"},
		{name: "missing license key", old: "    browserLicenseKey: NRJS-1\n", new: "", wantErr: "accounts[0].browserLicenseKey: required"},
		{name: "wrong type", old: "apdexTarget: 0.5", new: "apdexTarget: fast", wantErr: "cannot unmarshal"},
		{name: "two documents", old: "users:\n", new: "---\nusers: []\n---\nusers:\n", wantErr: "more than one YAML document"},
		{name: "duplicate YAML key", old: "    name: One\n", new: "    name: One\n    name: Two\n", wantErr: "already defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(valid, tt.old) {
				t.Fatalf("fixture lacks %q", tt.old)
			}
			_, err := sim.ParseData([]byte(strings.Replace(valid, tt.old, tt.new, 1)))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
	if _, err := sim.ParseData(nil); err == nil {
		t.Error("empty input accepted")
	}
}

func TestNewRejectsInvalidData(t *testing.T) {
	bad := &sim.Data{Accounts: []sim.Account{{ID: 1}}}
	if _, err := sim.NewDemo(bad); err == nil || !strings.Contains(err.Error(), "accounts[0].name: required") {
		t.Fatalf("NewDemo err = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("New accepted invalid data")
		}
	}()
	sim.New(bad)
}

func TestNewCopiesData(t *testing.T) {
	d := &sim.Data{
		Accounts: []sim.Account{{ID: 7, Name: "Seven", APMApplications: []sim.APMApplication{
			{ID: 123456789, Name: "Before", Language: "go", AlertSeverity: "NOT_CONFIGURED", ApdexTarget: 0.5},
		}}},
		Users: []sim.User{{Key: "K7", Accounts: []int{7}}},
	}
	h := newHarness(t, d)
	d.Accounts[0].APMApplications[0].Name = "After"
	var out entityOut
	h.mustQuery(t, "K7", entityQuery, map[string]any{"g": appGUID(7, 123456789)}, &out)
	if out.Actor.Entity == nil || out.Actor.Entity.Name != "Before" {
		t.Fatalf("entity %+v, want the data as of New", out.Actor.Entity)
	}
}
