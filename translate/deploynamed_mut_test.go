package translate

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// Mutants deployments.go:156 (findDeployment of a named write: appID 0, the lookup's
// error or no match), :179-:191 (appIDByName: an exact, case-sensitive name; entities
// without an application id skipped; two matches are none) — the legacy v0 write names
// its application, so after a timeout the identical retry must find the application by
// name to look the deployment up, and must not send it again while it may exist.
func TestDeploymentNamedRetryMut(t *testing.T) {
	app := func(name string, id any) map[string]any {
		return map[string]any{"__typename": "ApmApplicationEntityOutline", "guid": "g", "accountId": 1, "name": name, "reporting": true, "applicationId": id}
	}
	for _, tt := range []struct {
		name     string
		apps     []map[string]any
		listErr  error
		found    bool // the retry answers the recorded deployment
		pending  bool // the retry waits (503), nothing sent
		wantErr  bool
		wantSent int
	}{
		{"one exact match", []map[string]any{app("Shop", 9), app("shop", nil), app("shop", 7), app("shop-2", 8)}, nil, true, false, false, 1},
		{"two exact matches", []map[string]any{app("shop", 7), app("shop", 8)}, nil, false, true, false, 1},
		{"no exact match", []map[string]any{app("Shop", 7)}, nil, false, true, false, 1},
		{"lookup fails", nil, &ng.Error{Kind: ng.KindServer, Status: 500}, false, false, true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var sentMs float64
			d := newDepFake(func(int, int64, int64) []map[string]any {
				r := depRow("ct-named", int64(sentMs))
				r["version"] = "r1"
				return []map[string]any{r}
			})
			create := d.answer
			d.answer = func(op string, vars map[string]any) (any, error) {
				switch op {
				case "DeploymentCreateEvent":
					if d.created == 0 {
						sentMs = vars["event"].(map[string]any)["timestamp"].(float64)
						d.created++
						return nil, &ng.Error{Kind: ng.KindTimeout}
					}
				case "AppList":
					if tt.listErr != nil {
						return nil, tt.listErr
					}
					return map[string]any{"actor": map[string]any{
						"entitySearch": map[string]any{"count": len(tt.apps), "results": map[string]any{"nextCursor": nil, "entities": tt.apps}},
						"browsers":     map[string]any{"results": map[string]any{"entities": []any{}}},
						"account":      map[string]any{"inventory": map[string]any{"results": []any{}}}}}, nil
				}
				return create(op, vars)
			}
			now := depNow
			tr := depTranslator(d, &now)
			c := Caller{KeyHash: "k", AccountID: 1}
			in := DeploymentInput{Revision: "r1", AppName: "shop"}
			var ve *v2.Error
			if _, err := tr.CreateDeployment(context.Background(), c, 0, in, now, false); !errors.As(err, &ve) || ve.Status != 504 {
				t.Fatalf("first: %v", err)
			}
			now = depNow.Add(time.Minute)
			show, err := tr.CreateDeployment(context.Background(), c, 0, in, now, false)
			switch {
			case tt.found:
				if err != nil || show.Deployment.ID != SurrogateID("deployment", 1, "ct-named") {
					t.Errorf("retry: %+v, %v; want the recorded deployment", show, err)
				}
				if q := fmt.Sprint(d.calls[len(d.calls)-1].vars["guid"]); q != AppGUID(1, DomainAPM, 7) {
					t.Errorf("looked up in %s, want application 7's", q)
				}
			case tt.pending:
				if !errors.As(err, &ve) || ve.Status != 503 {
					t.Errorf("retry: %v, want 503 (not found yet)", err)
				}
			case tt.wantErr:
				if err == nil {
					t.Error("retry answered although the lookup failed")
				}
			}
			if d.created != tt.wantSent {
				t.Errorf("%d sent, want %d", d.created, tt.wantSent)
			}
		})
	}
}

// Mutants deployments.go:85, :88, :91 (ParseDeploymentTimestamp): ISO 8601 in UTC to
// the second is read; another offset, a fraction or another format is 422.
func TestParseDeploymentTimestampMut(t *testing.T) {
	want := time.Date(2019, 10, 8, 0, 15, 36, 0, time.UTC)
	for s, ok := range map[string]bool{
		"2019-10-08T00:15:36Z": true, "2019-10-08T00:15:36+00:00": true,
		"2019-10-08T02:15:36+02:00": false, "2019-10-08T00:15:36.5Z": false, "2019-10-08 00:15:36": false, "": false,
	} {
		got, err := ParseDeploymentTimestamp(s)
		var ve *v2.Error
		if ok && (err != nil || !got.Equal(want) || got.Location() != time.UTC) {
			t.Errorf("%q: %v, %v", s, got, err)
		}
		if !ok && (!errors.As(err, &ve) || ve.Status != 422) {
			t.Errorf("%q: %v, want 422", s, err)
		}
	}
}
