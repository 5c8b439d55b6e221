package sim

import (
	"strconv"

	"github.com/v2bridge/v2bridge/graphql/sim/nrdb"
	"github.com/v2bridge/v2bridge/graphql/sim/timeslice"
)

// DemoSeed seeds the demo's metric generator.
const DemoSeed = 20270731

// metricSource builds the Metric rows of every reporting APM application in data.
func metricSource(data *Data, seed uint64) *timeslice.Source {
	var apps []timeslice.App
	for _, acct := range data.Accounts {
		for _, a := range acct.APMApplications {
			if !a.Reporting || len(a.Instances) == 0 {
				continue
			}
			app := timeslice.App{
				AccountID: acct.ID,
				AppID:     int64(a.ID),
				AppName:   a.Name,
				GUID:      entityGUID(acct.ID, "APM", "APPLICATION", strconv.Itoa(a.ID)),
				ApdexT:    a.ApdexTarget,
			}
			for _, in := range a.Instances {
				app.Instances = append(app.Instances, timeslice.Instance{ID: in.ID, Host: in.Host})
			}
			apps = append(apps, app)
		}
	}
	return timeslice.NewSource(timeslice.Generator{Seed: seed}, apps)
}

// withDemoNRQL is the NRQL engine over the data's generated metrics, unless the caller
// chose a runner.
func withDemoNRQL(data *Data) Option {
	return func(s *Server) {
		if s.nrql == nil {
			s.nrql = nrdb.NewRunner(metricSource(data, DemoSeed))
		}
	}
}
