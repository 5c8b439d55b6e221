package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// ScaleAccountID and ScaleKey are the account and user key of the account ParseScale
// describes (`v2bridge sim --scale`, the bench harness's scale scenarios).
const (
	ScaleAccountID = 3000001
	ScaleKey       = "NRAK-SCALE-ACCOUNT"
)

// ParseScale reads a scale specification such as "apps=50000,hosts=3,names=5000" into
// the large account it describes (deterministic: the same text, the same account):
//
//	apps   reporting APM applications (required, 1 to 1,000,000)
//	hosts  hosts per application, two agent instances each (default 1)
//	names  metric names of the first application besides the defaults (default 0)
//	teams  application i is named large-app-<i>-team<i mod teams> (default 100:
//	       "team007" matches apps/100 applications, "large-app-0042-" one, and
//	       "large-app-0" those below 1000)
//
// Its applications run the simulator's eight agent languages in turn
// (LargeAppLanguage). The account is ScaleAccountID, reached by ScaleKey alone; give it to the simulator
// with WithLargeAccount.
func ParseScale(spec string) (LargeAccount, error) {
	l := LargeAccount{ID: ScaleAccountID, Key: ScaleKey, InstancesPerApp: 2, Teams: 100}
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return LargeAccount{}, fmt.Errorf("scale %q: want key=value pairs (apps, hosts, names, teams)", part)
		}
		if seen[k] {
			return LargeAccount{}, fmt.Errorf("scale: %s given twice", k)
		}
		seen[k] = true
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return LargeAccount{}, fmt.Errorf("scale %s=%q: want a non-negative integer", k, v)
		}
		switch k {
		case "apps":
			if n < 1 || n > 1_000_000 {
				return LargeAccount{}, fmt.Errorf("scale apps=%d: want 1 to 1000000", n)
			}
			l.Apps = n
		case "hosts":
			if n < 1 || n > 1000 {
				return LargeAccount{}, fmt.Errorf("scale hosts=%d: want 1 to 1000", n)
			}
			l.InstancesPerApp = 2 * n
		case "teams":
			if n > 1_000_000 {
				return LargeAccount{}, fmt.Errorf("scale teams=%d: want at most 1000000", n)
			}
			l.Teams = n
		case "names":
			if n > 100_000 {
				return LargeAccount{}, fmt.Errorf("scale names=%d: want at most 100000", n)
			}
			l.MetricNames = n
		default:
			return LargeAccount{}, fmt.Errorf("scale: unknown key %q (apps, hosts, names, teams)", k)
		}
	}
	if l.Apps == 0 {
		return LargeAccount{}, fmt.Errorf("scale %q: apps is required", spec)
	}
	return l, nil
}
