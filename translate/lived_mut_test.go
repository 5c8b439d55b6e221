package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Tests for the 14 mutants of violations.go and deployments.go that survived the
// efficacy run `make mutate PKG=./translate FILES='^(violations|hosts|deployments)\.go$'`
// at ee7109e (tests/MUTATION.md). Line numbers are those of f9be12a.

// Mutants deployments.go:113 CONDITIONALS_NEGATION (`in.AppName != ""` → `==`: every
// application id shares the attempt key "name:") and :122 CONDITIONALS_NEGATION
// (`in.IdempotencyKey != ""` → `==`: a key is looked up by content instead). An
// Idempotency-Key replays its recorded answer without a second write; the same key with
// another body (another revision, or another application) is refused with 422 and sends
// nothing; without a key, the same body for two applications is two writes.
func TestDeploymentIdempotencyKeyScopeMut(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	post := func(appID int64, rev, key string) (*v2.DeploymentShow, error) {
		return tr.CreateDeployment(context.Background(), c, appID, DeploymentInput{Revision: rev, IdempotencyKey: key}, now, false)
	}
	first, err := post(7, "r1", "key-1")
	if err != nil || d.created != 1 {
		t.Fatalf("first: %v, %d sent", err, d.created)
	}
	again, err := post(7, "r1", "key-1")
	if err != nil || d.created != 1 || again.Deployment.ID != first.Deployment.ID {
		t.Fatalf("replay: %+v, %v, %d sent (want the recorded answer, 1 sent)", again, err, d.created)
	}
	var ve *v2.Error
	for _, tt := range []struct {
		app int64
		rev string
	}{{7, "r2"}, {8, "r1"}} {
		if _, err := post(tt.app, tt.rev, "key-1"); !errors.As(err, &ve) || ve.Status != 422 || !strings.Contains(ve.Title, "Idempotency-Key") {
			t.Errorf("key-1 reused for app %d revision %s: %v, want 422", tt.app, tt.rev, err)
		}
	}
	if d.created != 1 {
		t.Errorf("%d sent after the refused reuses, want 1", d.created)
	}
	// Without a key: two applications, same body, are two writes; neither is refused.
	for _, app := range []int64{7, 8} {
		if _, err := post(app, "r9", ""); err != nil {
			t.Fatalf("app %d without a key: %v", app, err)
		}
	}
	if d.created != 3 {
		t.Errorf("%d sent, want 3", d.created)
	}
}

// Mutants deployments.go:241 CONDITIONALS_NEGATION (which entity search the event
// names), :275:35 and :275:50 CONDITIONALS_NEGATION (`ent != nil && *ent != nil`) and
// :276 CONDITIONALS_NEGATION (`f.GetApplicationId() != nil`): a legacy v0 write names
// the application (`name = '...'`), an id write names its guid; the created event's
// entity gives a named write its application id, which the answer carries and under
// which the replica remembers the deployment (listed before NRQL has it).
func TestDeploymentCreatedEntityMut(t *testing.T) {
	d := newDepFake(func(int, int64, int64) []map[string]any { return nil })
	now := depNow
	tr := depTranslator(d, &now)
	c := Caller{KeyHash: "k", AccountID: 1}
	show, err := tr.CreateDeployment(context.Background(), c, 0, DeploymentInput{Revision: "named", AppName: "shop"}, now, false)
	if err != nil {
		t.Fatal(err)
	}
	if show.Deployment.ApplicationID != 7 {
		t.Errorf("named write answered application %d, want 7 (the event's entity)", show.Deployment.ApplicationID)
	}
	search := func() string {
		ev, _ := json.Marshal(d.calls[len(d.calls)-1].vars["event"])
		return string(ev)
	}
	if s := search(); !strings.Contains(s, `name = 'shop'`) || strings.Contains(s, "id = ") {
		t.Errorf("named write's event %s, want the name search", s)
	}
	l, err := tr.ListDeployments(context.Background(), c, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Doc.Deployments) != 1 || l.Doc.Deployments[0].Revision != "named" {
		t.Errorf("list of 7 after the named write: %+v, want it remembered", l.Doc.Deployments)
	}
	if _, err := tr.CreateDeployment(context.Background(), c, 7, DeploymentInput{Revision: "by id"}, now, false); err != nil {
		t.Fatal(err)
	}
	want := `id = '` + AppGUID(1, DomainAPM, 7) + `'`
	if s := search(); !strings.Contains(s, want) || strings.Contains(s, "name = ") {
		t.Errorf("id write's event %s, want %s", s, want)
	}
}

// Mutant deployments.go:412 INCREMENT_DECREMENT (`read++` → `read--`): full reads that
// always move back stop after deploymentReads (20) reads, declared. The fake refuses a
// 26th read, so the mutant fails instead of reading back to the window's start.
func TestDeploymentListReadBoundMut(t *testing.T) {
	d := newDepFake(nil)
	create := d.answer
	d.answer = func(op string, vars map[string]any) (any, error) {
		if op != "Deployments" {
			return create(op, vars)
		}
		if d.count("Deployments") > deploymentReads+5 {
			return nil, errors.New("fake: too many reads")
		}
		m := rangeRe.FindStringSubmatch(fmt.Sprint(vars["query"]))
		until, _ := strconv.ParseInt(m[2], 10, 64)
		// 5000 rows of one deployment 2 ms before this read's end: each read moves 1 ms.
		row := `{"timestamp":` + strconv.FormatInt(until-2, 10) + `,"changeTrackingId":"x` + strconv.Itoa(d.count("")) + `","version":"v"},`
		b := []byte(`{"actor":{"entity":{"__typename":"ApmApplicationEntity","guid":"` + AppGUID(1, DomainAPM, 7) +
			`","accountId":1},"account":{"deployments":{"results":[`)
		b = append(b, strings.Repeat(row, MaxFacets)...)
		b = append(b[:len(b)-1], "]}}}}"...)
		return json.RawMessage(b), nil
	}
	now := depNow
	var notes Notes
	if _, err := depTranslator(d, &now).ListDeployments(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, 7, 1); err != nil {
		t.Fatal(err)
	}
	if d.count("Deployments") != deploymentReads || notes.String() != string(CapDeployments) {
		t.Fatalf("%d reads (want %d), notes %q", d.count("Deployments"), deploymentReads, notes.String())
	}
}

// Mutant deployments.go:510 CONDITIONALS_NEGATION (`dedup == ""` → `!=`): rows without
// deploymentId or changeTrackingId are told apart by their whole row, so two such
// deployments are both listed.
func TestDeploymentRowsWithoutIDMut(t *testing.T) {
	base := depNow.UnixMilli() - 60_000
	d := newDepFake(func(int, int64, int64) []map[string]any {
		return []map[string]any{
			{"timestamp": float64(base), "version": "a"},
			{"timestamp": float64(base - 1000), "version": "b"},
		}
	})
	now := depNow
	l, err := depTranslator(d, &now).ListDeployments(context.Background(), Caller{AccountID: 1}, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Doc.Deployments) != 2 || l.Doc.Deployments[0].Revision != "a" || l.Doc.Deployments[1].Revision != "b" {
		t.Fatalf("%+v, want a and b", l.Doc.Deployments)
	}
}

// Mutant deployments.go:544 ARITHMETIC_BASE (`2*DeploymentMemory` → `2/DeploymentMemory`,
// a cleanup interval of 0: go-cache starts no janitor, so expired deployments would stay
// in memory until read). go-cache exposes no accessor for its cleanup interval; the test
// reads the janitor's interval by reflection (github.com/patrickmn/go-cache cache.go:
// Cache embeds *cache, whose janitor holds Interval).
func TestDeployLedgerJanitorMut(t *testing.T) {
	if got := janitorInterval(t, newDeployLedger().recent); got != 2*DeploymentMemory {
		t.Fatalf("janitor interval %v, want %v", got, 2*DeploymentMemory)
	}
}

// Mutant cache.go:41 ARITHMETIC_BASE (`gocache.New(ttl, 2*ttl)` → `2/ttl`: no janitor, so
// expired answers would stay in memory, and in the byte count, until read or evicted
// for room): every cache sweeps expired entries every two TTLs. Listed as cache.go:37 A
// (not addressed) by the first translate pass.
func TestCacheJanitorMut(t *testing.T) {
	if got := janitorInterval(t, NewCache("lists", time.Minute, 10, nil).c); got != 2*time.Minute {
		t.Fatalf("janitor interval %v, want 2m", got)
	}
}

// janitorInterval is the cleanup interval of a go-cache cache (0: no janitor).
func janitorInterval(t *testing.T, c any) time.Duration {
	t.Helper()
	v := reflect.ValueOf(c).Elem().Field(0) // *cache
	if v.Kind() != reflect.Pointer || v.IsNil() {
		t.Fatalf("go-cache layout changed: %v", v.Kind())
	}
	j := v.Elem().FieldByName("janitor")
	if !j.IsValid() {
		t.Fatal("go-cache layout changed: no janitor field")
	}
	if j.IsNil() {
		return 0
	}
	return time.Duration(j.Elem().FieldByName("Interval").Int())
}

// Mutants deployments.go:556 INCREMENT_DECREMENT (`al.refs++`), :560 INCREMENT_DECREMENT
// (`al.refs--`) and CONDITIONALS_NEGATION (`al.refs == 0`): the per-application lock is
// dropped when its last holder or waiter leaves, so the map does not grow with every
// application written to; while one holds it, a waiter whose context ends is refused
// and the lock stays.
func TestDeployLockRefsMut(t *testing.T) {
	l := newDeployLedger()
	ctx := context.Background()
	for app := int64(1); app <= 3; app++ {
		unlock, err := l.lock(ctx, 1, app)
		if err != nil {
			t.Fatal(err)
		}
		unlock()
	}
	if n := len(l.locks); n != 0 {
		t.Fatalf("%d locks kept after every unlock, want 0", n)
	}
	unlock, err := l.lock(ctx, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.lock(done, 1, 7); !errors.Is(err, context.Canceled) {
		t.Fatalf("second holder while held: %v, want context.Canceled", err)
	}
	if n := len(l.locks); n != 1 {
		t.Fatalf("%d locks while one is held, want 1", n)
	}
	unlock()
	if n := len(l.locks); n != 0 {
		t.Fatalf("%d locks kept, want 0", n)
	}
}

// Mutant violations.go:130 CONDITIONALS_BOUNDARY (`last > 0` → `>= 0`): a row without
// lastSeen does not count as the oldest event, so a full read is still followed by the
// read that ends at the oldest real lastSeen + 1 ms (the mutant ends at 1 ms, makes no
// progress and cuts the list).
func TestViolationsFullReadRowWithoutLastSeenMut(t *testing.T) {
	full := make([]map[string]any, 0, MaxFacets)
	for i := 0; i < MaxFacets; i++ {
		full = append(full, violRow(int64(10_000+i), 2_000_000+int64(i), 0))
	}
	delete(full[MaxFacets-1], "lastSeen")
	tr, f := violTranslator(func(call int) []map[string]any {
		if call == 0 {
			return full
		}
		return nil
	})
	start := time.UnixMilli(1)
	var notes Notes
	if _, _, err := tr.Violations(WithNotes(context.Background(), &notes), Caller{AccountID: 1}, ViolationsRequest{Start: &start}); err != nil {
		t.Fatal(err)
	}
	if f.count("NrqlQuery") != 2 || notes.String() != "" {
		t.Fatalf("%d reads, notes %q; want 2 reads, no cap", f.count("NrqlQuery"), notes.String())
	}
	if _, until := sentRange(t, f, 1); until != 2_000_001 {
		t.Errorf("second read UNTIL %d, want 2000001", until)
	}
}

// Mutant violations.go:149 CONDITIONALS_BOUNDARY (`OpenedAt >` → `>=` in the stable
// sort): violations opened in the same millisecond keep NRQL's order, so a page holds
// the same ones on every read.
func TestViolationsTieOrderMut(t *testing.T) {
	rows := []map[string]any{violRow(3, 5000, 0), violRow(1, 5000, 0), violRow(2, 5000, 0), violRow(9, 9000, 0)}
	tr, _ := violTranslator(func(int) []map[string]any { return rows })
	start := time.UnixMilli(1)
	l, _, err := tr.Violations(context.Background(), Caller{AccountID: 1}, ViolationsRequest{Start: &start})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, v := range l.Violations {
		ids = append(ids, v.ID)
	}
	if fmt.Sprint(ids) != "[9 3 1 2]" {
		t.Fatalf("order %v, want [9 3 1 2]", ids)
	}
}
