package translate

import (
	"strconv"
	"time"

	"github.com/v2bridge/v2bridge/translate/metricdata"
)

// The operator's choices that change a cached answer are part of that answer's cache
// key, after the caller: replicas of a fleet sharing one store (store.shared_cache)
// but configured otherwise, as during a rollout of a new configuration, then never
// serve each other's answers. An option that only changes what an answer costs (TTLs,
// caps) is not part of any key.

// docReading is what, besides the request, a metric data document is read with: the
// metric choices (metric_raw, queue_time) and the metric names window, in which a
// name without data in the range is looked for (found with zero values when listed).
func docReading(ch metricdata.Choices, namesWindow time.Duration) string {
	b := make([]byte, 0, 48)
	b = append(b, "raw="...)
	b = append(b, choice(ch.RawFields, "fields", "values")...)
	b = append(b, ";queue="...)
	b = append(b, choice(ch.QueuePerView, "per_view", "published")...)
	b = append(b, ";names="...)
	b = strconv.AppendInt(b, int64(namesWindow), 10)
	return string(b)
}

// showReading is what, besides the request, an application show is read with: the
// transactions its application_summary covers (summary_transactions).
func showReading(summaryAll bool) string {
	return "summary=" + choice(summaryAll, "all", "web")
}

// choice is yes when on, no otherwise.
func choice(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}
