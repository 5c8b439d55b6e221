package restv2

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// randomApplication is an application with each optional part present or not, names
// that need escaping, and floats of every kind JSON writes differently.
func randomApplication(r *rand.Rand) Application {
	strs := []string{"", "web-app", `quo"te\back`, "<&>", "ünïcode ☃", "ctl\x01\n\t", "bad \xff utf8", "line\u2028sep"}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e21, 1e-7, 123.456, math.NaN(), math.Inf(1), math.Inf(-1), 1 << 53, 298.2409483028803}
	str := func() string { return strs[r.IntN(len(strs))] }
	f := func() float64 {
		if r.IntN(3) == 0 {
			return r.NormFloat64() * math.Pow(10, float64(r.IntN(30)-15))
		}
		return floats[r.IntN(len(floats))]
	}
	ids := func() []int64 {
		if r.IntN(4) == 0 {
			return nil
		}
		out := make([]int64, r.IntN(4))
		for i := range out {
			out[i] = r.Int64N(1 << 31)
		}
		return out
	}
	a := Application{ID: r.Int64N(1 << 40), Name: str(), Language: str(), HealthStatus: str(), Reporting: r.IntN(2) == 0,
		Settings: ApplicationSettings{AppApdexThreshold: f(), EnableRealUserMonitoring: r.IntN(2) == 0, UseServerSideConfig: r.IntN(2) == 0}}
	if r.IntN(2) == 0 {
		t := time.Unix(r.Int64N(2e9), 0).In(time.FixedZone("X", 3600))
		a.LastReportedAt = &t
	}
	if r.IntN(2) == 0 {
		a.Summary = &ApplicationSummary{ResponseTime: f(), Throughput: f(), ErrorRate: f(), ApdexTarget: f(), ApdexScore: f(), HostCount: r.Int64N(9), InstanceCount: -r.Int64N(9)}
	}
	if r.IntN(2) == 0 {
		a.EndUser = &EndUserSummary{ResponseTime: f(), Throughput: f(), ApdexTarget: f()}
	}
	if r.IntN(2) == 0 {
		t := f()
		a.Settings.EndUserApdexThreshold = &t
	}
	if r.IntN(3) > 0 {
		a.Links = &ApplicationLinks{ApplicationInstances: ids(), ApplicationHosts: ids()}
	}
	return a
}

// TestApplicationsJSONMatchesGeneric: the direct writer of application lists and shows
// writes the bytes the generic encoder writes from their EncodeV2, on varied
// applications (every optional part with and without, escapes, NaN, -0, exponents),
// empty lists and exclude_links.
func TestApplicationsJSONMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 5))
	for i := range 400 {
		apps := make([]Application, r.IntN(5))
		for j := range apps {
			apps[j] = randomApplication(r)
		}
		docs := []Document{&ApplicationList{Applications: apps, ExcludeLinks: i%2 == 0}}
		if len(apps) > 0 {
			docs = append(docs, &ApplicationShow{Application: apps[0]})
		}
		for _, doc := range docs {
			got, want := JSON([]byte("x"), doc), genericJSON([]byte("x"), doc)
			if !bytes.Equal(got, want) {
				t.Fatalf("%T:\n got %s\nwant %s", doc, got, want)
			}
		}
	}
}

// BenchmarkRenderApplicationList is a page of 200 applications rendered by the direct
// writer (JSON) and by the generic encoder.
func BenchmarkRenderApplicationList(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	apps := make([]Application, 200)
	for i := range apps {
		apps[i] = randomApplication(r)
	}
	doc := &ApplicationList{Applications: apps}
	buf := make([]byte, 0, 1<<20)
	for _, tt := range []struct {
		name   string
		render func([]byte, Document) []byte
	}{{"direct", JSON}, {"generic", genericJSON}} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = tt.render(buf[:0], doc)
			}
		})
	}
}
