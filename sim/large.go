package sim

import (
	"fmt"
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/sim/nrdb"
	"github.com/v2bridge/v2bridge/sim/timeslice"
)

// LargeAccount describes an account big enough to exceed the limits NRDB applies
// silently (5000 facets, LIMIT MAX): tests use it to prove the gateway reads past them
// or declares them. Nothing is stored per row: metrics are generated on demand, so
// only Incidents costs memory (two events each at most).
type LargeAccount struct {
	// ID is the account id; Key is the user key that reaches it (it alone).
	ID  int
	Key string
	// Apps reporting APM applications (languages in turn: LargeAppLanguage), each with
	// InstancesPerApp agent instances (two instances a host). Apps × InstancesPerApp is
	// the account-wide inventory's facet count.
	Apps, InstancesPerApp int
	// Incidents NrAiIncident incidents, one every IncidentEvery back from now (default
	// 5 minutes); every fourth one is still open (one event), the others closed (two).
	Incidents     int
	IncidentEvery time.Duration
	// Policies alert policies (default 1), incident i on policy i mod Policies;
	// preferences alternate PER_POLICY, PER_CONDITION.
	Policies int
	// Browsers gives every application an injected browser application, and
	// KeyTransactions one key transaction each (on WebTransaction/Controller/orders/show,
	// a name every generated application reports).
	Browsers, KeyTransactions bool
	// Mobile reporting mobile applications.
	Mobile int
	// ReportingFor is how long the instances have reported, back from the simulator's
	// now (zero: always). A short one keeps a query over thousands of instances cheap
	// (no rows are generated before it) without changing what is counted, once it
	// exceeds a minute and the longest arrival (timeslice.Generator.Arrival): before
	// that some instances have no minute ingested yet.
	ReportingFor time.Duration
	// MetricNames, when positive, gives the first application that many metric names
	// (LargeMetricName) besides the generator's defaults; the others keep the defaults.
	MetricNames int
	// Teams, when positive, appends "-team%03d" (i mod Teams) to application i's name,
	// so a name filter can match a known share of the account (Apps/Teams each).
	Teams int
}

// LargeMetricName is the i-th extra metric name of the first application (an unscoped
// name, so it has no per-transaction copies).
func LargeMetricName(i int) string { return fmt.Sprintf("Scale/Metric/%05d", i) }

// LargeAppID is the id of the i-th application (0-based) of the large account.
func (l LargeAccount) LargeAppID(i int) int { return 1_500_000_000 + l.ID%1000*10_000 + i }

// LargeAppName is the name of the i-th application (0-based).
func (l LargeAccount) LargeAppName(i int) string {
	if l.Teams > 0 {
		return fmt.Sprintf("large-app-%04d-team%03d", i, i%l.Teams)
	}
	return fmt.Sprintf("large-app-%04d", i)
}

// LargeAppLanguage is the agent language of the i-th application: the simulator's
// eight languages in turn, as a large account runs several agents (so a search by
// language = '...' holds an eighth of the account).
func (l LargeAccount) LargeAppLanguage(i int) string {
	langs := languages()
	return langs[i%len(langs)]
}

// LargeInstanceID is the id of instance k of the i-th application.
func (l LargeAccount) LargeInstanceID(i, k int) int64 {
	return int64(l.LargeAppID(i))*100_000 + int64(k) + 1
}

// LargeIncidentID is the incidentId of the i-th incident (0 is the newest).
func (l LargeAccount) LargeIncidentID(i int) string { return strconv.Itoa(l.ID%1000*1_000_000 + i + 1) }

// WithLargeAccount adds l to the simulator's data (the Data given to New or NewDemo,
// which it changes) with one alert policy and a user key, and records its incidents.
// It must come after WithClock (incidents are placed back from the simulator's now).
func WithLargeAccount(l LargeAccount) Option {
	return func(s *Server) {
		acct := Account{ID: l.ID, Name: fmt.Sprintf("Large account %d", l.ID), BrowserLicenseKey: fmt.Sprintf("NRJS-large%010d", l.ID)}
		for p := 0; p < max(l.Policies, 1); p++ {
			pref := "PER_POLICY"
			if p%2 == 1 {
				pref = "PER_CONDITION"
			}
			acct.AlertPolicies = append(acct.AlertPolicies, AlertPolicy{ID: l.ID%1000*10_000 + p + 1,
				Name: fmt.Sprintf("Large policy %04d", p), IncidentPreference: pref})
		}
		for i := 0; i < l.Apps; i++ {
			app := APMApplication{ID: l.LargeAppID(i), Name: l.LargeAppName(i), Language: l.LargeAppLanguage(i),
				Reporting: true, AlertSeverity: "NOT_ALERTING", ApdexTarget: 0.5}
			if l.Browsers {
				app.Browser = &BrowserApplication{ID: l.LargeAppID(i) + 100_000_000, ApdexTarget: 2, Loader: "SPA"}
			}
			if l.KeyTransactions {
				acct.KeyTransactions = append(acct.KeyTransactions, KeyTransaction{ID: l.ID%1000*10_000 + i + 1,
					Name: fmt.Sprintf("large-kt-%04d", i), AppID: app.ID, MetricName: "WebTransaction/Controller/orders/show", ApdexTarget: 0.5})
			}
			if i == 0 && l.MetricNames > 0 {
				app.MetricNames = timeslice.DefaultNames()
				for n := 0; n < l.MetricNames; n++ {
					app.MetricNames = append(app.MetricNames, LargeMetricName(n))
				}
			}
			for k := 0; k < l.InstancesPerApp; k++ {
				in := Instance{ID: l.LargeInstanceID(i, k), Host: fmt.Sprintf("large-%04d-%05d", i, k/2)}
				if l.ReportingFor > 0 {
					in.ReportingSince = s.now().Add(-l.ReportingFor)
				}
				app.Instances = append(app.Instances, in)
			}
			acct.APMApplications = append(acct.APMApplications, app)
		}
		for i := 0; i < l.Mobile; i++ {
			acct.MobileApplications = append(acct.MobileApplications, MobileApplication{ID: l.LargeAppID(i) + 200_000_000,
				Name: fmt.Sprintf("large-mobile-%04d", i), Reporting: true, ApplicationToken: fmt.Sprintf("AA%08d", i)})
		}
		s.data.Accounts = append(s.data.Accounts, acct)
		s.data.Users = append(s.data.Users, User{Key: l.Key, Name: "Large", Accounts: []int{l.ID}})
		w, err := buildWorld(s.data)
		if err != nil {
			panic(fmt.Sprintf("sim.WithLargeAccount: %v", err)) // a programming error in the spec
		}
		s.world.Store(w)
		addLargeIncidents(&s.events, l, acct, s.now())
	}
}

func addLargeIncidents(ev *eventStore, l LargeAccount, acct Account, now time.Time) {
	every := l.IncidentEvery
	if every <= 0 {
		every = 5 * time.Minute
	}
	for i := 0; i < l.Incidents; i++ {
		pol := acct.AlertPolicies[i%len(acct.AlertPolicies)]
		opened := now.Add(-time.Duration(i+1) * every).Truncate(time.Second)
		base := map[string]any{
			"accountId": float64(l.ID), "incidentId": l.LargeIncidentID(i), "title": fmt.Sprintf("Large incident %05d", i),
			"conditionName": "Large condition", "policyName": pol.Name, "priority": "critical",
			"conditionId": float64(9000), "policyId": float64(pol.ID), "entity.type": "APPLICATION",
			"openTime": float64(opened.UnixMilli()),
		}
		if len(acct.APMApplications) > 0 {
			app := acct.APMApplications[i%len(acct.APMApplications)]
			base["entity.guid"] = entityGUID(l.ID, "APM", "APPLICATION", strconv.Itoa(app.ID))
			base["entity.name"] = app.Name
		}
		open := map[string]any{"event": "open"}
		for k, v := range base {
			open[k] = v
		}
		ev.add(nrdb.MapRow{Type: "NrAiIncident", At: opened, Attrs: open})
		if i%4 == 0 {
			continue // still open
		}
		closed := opened.Add(every / 2)
		cl := map[string]any{"event": "close", "closeTime": float64(closed.UnixMilli())}
		for k, v := range base {
			cl[k] = v
		}
		ev.add(nrdb.MapRow{Type: "NrAiIncident", At: closed, Attrs: cl})
	}
}
