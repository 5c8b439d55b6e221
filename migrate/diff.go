package migrate

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// CompareOptions say what a comparison of two v2 bodies overlooks.
type CompareOptions struct {
	// Tolerance is the relative difference under which two numbers are equal
	// (default 0.05: summaries and metric values move between two reads).
	Tolerance float64
	// Ignore lists object keys whose values are volatile and never compared
	// (default: last_reported_at, application_summary, end_user_summary).
	Ignore []string
	// MaxPaths bounds the differences reported (default 20).
	MaxPaths int
}

func (o CompareOptions) withDefaults() CompareOptions {
	if o.Tolerance <= 0 {
		o.Tolerance = 0.05
	}
	if o.Ignore == nil {
		o.Ignore = []string{"last_reported_at", "application_summary", "end_user_summary"}
	}
	if o.MaxPaths <= 0 {
		o.MaxPaths = 20
	}
	return o
}

// DiffJSON compares two v2 JSON bodies after normalising them: arrays of objects with an
// "id" are compared by id regardless of order, ignored keys are skipped, numbers equal
// within the tolerance. It returns the JSON paths that differ (at most MaxPaths).
func DiffJSON(a, b []byte, o CompareOptions) ([]string, error) {
	o = o.withDefaults()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		return nil, fmt.Errorf("first body: %w", err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		return nil, fmt.Errorf("second body: %w", err)
	}
	ignore := map[string]bool{}
	for _, k := range o.Ignore {
		ignore[k] = true
	}
	var paths []string
	var walk func(path string, x, y any)
	walk = func(path string, x, y any) {
		if len(paths) >= o.MaxPaths {
			return
		}
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok {
				paths = append(paths, path)
				return
			}
			keys := map[string]bool{}
			for k := range xv {
				keys[k] = true
			}
			for k := range yv {
				keys[k] = true
			}
			sorted := make([]string, 0, len(keys))
			for k := range keys {
				sorted = append(sorted, k)
			}
			sort.Strings(sorted)
			for _, k := range sorted {
				if ignore[k] {
					continue
				}
				walk(path+"."+k, xv[k], yv[k])
			}
		case []any:
			yv, ok := y.([]any)
			if !ok {
				paths = append(paths, path)
				return
			}
			if len(xv) != len(yv) {
				paths = append(paths, path+".length")
				return
			}
			xs, ys := byID(xv), byID(yv)
			for i := range xs {
				walk(path+"["+strconv.Itoa(i)+"]", xs[i], ys[i])
			}
		case float64:
			yv, ok := y.(float64)
			if !ok || !near(xv, yv, o.Tolerance) {
				paths = append(paths, path)
			}
		default:
			if x != y {
				paths = append(paths, path)
			}
		}
	}
	walk("$", va, vb)
	return paths, nil
}

// byID orders an array of objects by their "id" (as REST's order was indeterminate);
// other arrays keep their order.
func byID(xs []any) []any {
	for _, x := range xs {
		m, ok := x.(map[string]any)
		if !ok {
			return xs
		}
		if _, ok := m["id"].(float64); !ok {
			return xs
		}
	}
	out := append([]any(nil), xs...)
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].(map[string]any)["id"].(float64) < out[j].(map[string]any)["id"].(float64)
	})
	return out
}

func near(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}
