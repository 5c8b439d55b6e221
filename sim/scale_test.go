package sim

import (
	"reflect"
	"testing"
)

func TestParseScale(t *testing.T) {
	tests := []struct {
		spec    string
		want    LargeAccount
		wantErr bool
	}{
		{spec: "apps=50000,hosts=3", want: LargeAccount{ID: ScaleAccountID, Key: ScaleKey, Apps: 50000, InstancesPerApp: 6, Teams: 100}},
		{spec: "apps=264", want: LargeAccount{ID: ScaleAccountID, Key: ScaleKey, Apps: 264, InstancesPerApp: 2, Teams: 100}},
		{spec: " apps=10 , names=5000", want: LargeAccount{ID: ScaleAccountID, Key: ScaleKey, Apps: 10, InstancesPerApp: 2, MetricNames: 5000, Teams: 100}},
		{spec: "apps=7,teams=0", want: LargeAccount{ID: ScaleAccountID, Key: ScaleKey, Apps: 7, InstancesPerApp: 2}},
		{spec: "hosts=3", wantErr: true},
		{spec: "apps=0", wantErr: true},
		{spec: "apps=-1", wantErr: true},
		{spec: "apps=x", wantErr: true},
		{spec: "apps=1,apps=2", wantErr: true},
		{spec: "apps=1,color=red", wantErr: true},
		{spec: "apps", wantErr: true},
		{spec: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseScale(tt.spec)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLargeAppName(t *testing.T) {
	l := LargeAccount{Teams: 100}
	if got := l.LargeAppName(4207); got != "large-app-4207-team007" {
		t.Fatalf("got %q", got)
	}
	if got := (LargeAccount{}).LargeAppName(42); got != "large-app-0042" {
		t.Fatalf("got %q", got)
	}
}
