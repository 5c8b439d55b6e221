package translate

import (
	"context"
	"testing"
	"time"

	"github.com/v2bridge/v2bridge/restv2"

	"github.com/v2bridge/v2bridge/state"
)

// An answer's basis holds while every entry its reads vouched for is still what the
// same reads would serve: a new entry for the account list or the application, a
// write to the account, or the key's acceptance ending it.
func TestBasisHoldsWhileItsEntriesDo(t *testing.T) {
	c := Caller{KeyHash: "kh", AccountID: 1000001}
	tests := []struct {
		name  string
		after func(tr *Translator)
		want  bool
	}{
		{"untouched", func(*Translator) {}, true},
		{"another application stored", func(tr *Translator) {
			tr.st.Entities.Set(tr.appEntityKey(c, 2), &restv2.ApplicationShow{})
		}, true},
		{"account list stored again", func(tr *Translator) {
			tr.st.Accounts.Set(Caller{KeyHash: "kh"}.cacheKey("accounts"), []int64{1000001, 1000002})
		}, false},
		{"application stored again", func(tr *Translator) {
			tr.st.Entities.Set(tr.appEntityKey(c, 1), &restv2.ApplicationShow{})
		}, false},
		{"a write to the account", func(tr *Translator) { tr.wroteAccount(c) }, false},
		{"the key refused", func(tr *Translator) { (*tr.keys.Load()).(*keysDouble).refuse("kh") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New(nil, Options{})
			useKeysDouble(tr)
			tr.st.Accounts.Set(Caller{KeyHash: "kh"}.cacheKey("accounts"), []int64{1000001})
			tr.st.Entities.Set(tr.appEntityKey(c, 1), &restv2.ApplicationShow{})
			var n Notes
			ctx := WithNotes(context.Background(), &n)
			if ids, err := tr.Accounts(ctx, "kh"); err != nil || len(ids) != 1 {
				t.Fatalf("accounts: %v %v", ids, err)
			}
			if _, err := tr.ShowApplication(ctx, c, 1); err != nil {
				t.Fatal(err)
			}
			b := n.Basis()
			if !b.Usable() || b.Len() != 2 || !tr.Holds(&b) || b.Expires().IsZero() {
				t.Fatalf("basis of two cached reads: %+v", b)
			}
			tt.after(tr)
			if got := tr.Holds(&b); got != tt.want {
				t.Fatalf("holds %v, want %v", got, tt.want)
			}
		})
	}
}

// A read the basis cannot name spoils it: an entry past state.MaxBasisReads, or none noted
// at all.
func TestBasisOfUnnamedReadsIsUnusable(t *testing.T) {
	tr := New(nil, Options{})
	useKeysDouble(tr)
	c := Caller{KeyHash: "kh", AccountID: 1}
	for id := int64(1); id <= state.MaxBasisReads+1; id++ {
		tr.st.Entities.Set(tr.appEntityKey(c, id), &restv2.ApplicationShow{})
	}
	var n Notes
	if b := n.Basis(); b.Usable() || tr.Holds(&b) {
		t.Fatal("an empty basis is usable")
	}
	ctx := WithNotes(context.Background(), &n)
	for id := int64(1); id <= state.MaxBasisReads+1; id++ {
		if _, err := tr.ShowApplication(ctx, c, id); err != nil {
			t.Fatal(err)
		}
	}
	if b := n.Basis(); b.Usable() || tr.Holds(&b) {
		t.Fatalf("%d reads: %+v", state.MaxBasisReads+1, b)
	}
}

// A basis whose keys the clock builds ends when the clock changes them.
func TestBasisEndsAtItsUntil(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tr := New(nil, Options{Now: func() time.Time { return now }})
	useKeysDouble(tr)
	tr.st.Accounts.Set(Caller{KeyHash: "kh"}.cacheKey("accounts"), []int64{1})
	var n Notes
	ctx := WithNotes(context.Background(), &n)
	if _, ok := vouchedGet(ctx, tr.st.Accounts, Caller{KeyHash: "kh"}.cacheKey("accounts"), now.Add(time.Second)); !ok {
		t.Fatal("miss")
	}
	b := n.Basis()
	if !tr.Holds(&b) {
		t.Fatal("before its until")
	}
	now = now.Add(time.Second)
	if tr.Holds(&b) {
		t.Fatal("at its until")
	}
}
