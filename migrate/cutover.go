package migrate

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/migrate/verify"
)

// VerdictDeclaredOnly is the cut-over verdict of a route whose every difference seen
// is declared by its fidelity note.
const VerdictDeclaredOnly = "verified, declared differences only"

// CutoverRow is one route of the report's cut-over table: what callers do on it and
// the evidence that the translation answers it as REST does, side by side.
type CutoverRow struct {
	Route    string `json:"route"`
	Calls    int64  `json:"calls"`
	Fidelity string `json:"fidelity"`
	// Verify is the route's line of the last `v2bridge verify` report (nil when that
	// report did not cover the route or none is configured).
	Verify *CutoverVerify `json:"last_verify,omitempty"`
	// Compare is the route's compare-mode outcome on this replica (nil: none).
	Compare *CompareRate `json:"compare,omitempty"`
	// Verdict sums it up: "verified equal", "verified, declared differences only" (every
	// difference seen is one the route's fidelity note declares: ready to cut over),
	// "N difference(s)" (undeclared ones), "errors", "not verified".
	Verdict string `json:"verdict"`
}

// CutoverVerify is a route's summary in a verify report.
type CutoverVerify struct {
	At          time.Time `json:"at"`
	Requests    int       `json:"requests"`
	Equal       int       `json:"equal"`
	Within      int       `json:"within_tolerance"`
	Differences int       `json:"differences"`
	// Declared counts the differences the route's fidelity note declares (not among
	// Differences).
	Declared int `json:"declared_differences"`
	// NotCompared counts the requests not compared: a side failed (Failed of them) or
	// does not serve the route (501, as the demo's REST double for the routes it leaves
	// out), which leaves the route not verified rather than in error.
	NotCompared int `json:"not_compared"`
	Failed      int `json:"failed"`
}

// lastVerify reads the verify report (JSON) at path, by route.
func lastVerify(path string) (map[string]*CutoverVerify, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("verify report: %w", err)
	}
	var rep verify.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("verify report %s: %w", path, err)
	}
	declared := map[string]int{}
	for _, x := range rep.Exchanges {
		for _, f := range x.Fields {
			if f.Declared != "" && f.Verdict != verify.Equal && f.Verdict != verify.WithinTol {
				declared[x.Route]++
			}
		}
	}
	out := map[string]*CutoverVerify{}
	for _, s := range rep.Routes {
		out[s.Route] = &CutoverVerify{At: rep.Finished, Requests: s.Requests, Equal: s.Counts[verify.Equal], Within: s.Counts[verify.WithinTol],
			Differences: s.Counts[verify.Different] + s.Counts[verify.MissingREST] + s.Counts[verify.MissingGraph] - declared[s.Route],
			Declared:    declared[s.Route], NotCompared: s.NotCompared + s.Errors, Failed: s.Errors}
	}
	return out, nil
}

// cutover builds the table over the routes callers used (rows), the routes the verify
// report at verifyFile covered and the routes compared (rates). A verify report that
// cannot be read is returned as the error, and the table is built without it.
func cutover(rows []Usage, verifyFile string, rates []CompareRate) ([]CutoverRow, error) {
	calls := map[string]int64{}
	for _, u := range rows {
		calls[u.Route] += u.Count
	}
	ver, err := lastVerify(verifyFile)
	cmp := map[string]*CompareRate{}
	for _, c := range rates {
		c := c
		cmp[c.Route] = &c
	}
	fidelity := map[string]string{}
	for _, r := range gateway.Routes() {
		fidelity[r.Name] = string(r.Fidelity)
	}
	names := map[string]bool{}
	for r := range calls {
		names[r] = true
	}
	for r := range ver {
		names[r] = true
	}
	for r := range cmp {
		names[r] = true
	}
	out := make([]CutoverRow, 0, len(names))
	for r := range names {
		row := CutoverRow{Route: r, Calls: calls[r], Fidelity: fidelity[r], Verify: ver[r], Compare: cmp[r]}
		diffs, declared, errs, seen := 0, 0, 0, false
		if v := row.Verify; v != nil {
			diffs, declared, errs, seen = v.Differences, v.Declared, v.Failed, v.Requests > v.NotCompared
		}
		if c := row.Compare; c != nil {
			diffs += int(c.Diff)
			declared += int(c.Declared)
			errs += int(c.Errors)
			seen = seen || c.Match > 0 || c.Declared > 0
		}
		switch {
		case diffs > 0:
			row.Verdict = fmt.Sprintf("%d difference(s)", diffs)
		case errs > 0 && !seen:
			row.Verdict = "errors"
		case seen && declared > 0:
			row.Verdict = VerdictDeclaredOnly
		case seen:
			row.Verdict = "verified equal"
		default:
			row.Verdict = "not verified"
		}
		out = append(out, row)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Route < out[j].Route })
	return out, err
}
