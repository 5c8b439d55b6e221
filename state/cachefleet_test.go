package state

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// store is an in-memory SharedCache that counts its reads and writes.
type store struct {
	val         map[string][]byte
	gets, sets  int
	unshareable int
}

func (s *store) GetCached(_ context.Context, name, key, _ string) ([]byte, time.Duration, time.Duration, error) {
	s.gets++
	b, ok := s.val[name+"/"+key]
	if !ok {
		return nil, 0, 0, nil
	}
	return b, time.Minute, 3 * time.Second, nil
}

func (s *store) SetCached(_ context.Context, name, key string, value []byte, _ time.Duration) error {
	s.sets++
	s.val[name+"/"+key] = value
	return nil
}

func (s *store) KeyAccepted(context.Context, string, time.Duration) {}
func (s *store) KeyRefused(context.Context, string)                 {}
func (s *store) CacheUnshareable()                                  { s.unshareable++ }

// intsCodec carries []int.
var intsCodec = Codec{
	Encode: func(v any) ([]byte, bool) {
		ids, ok := v.([]int)
		if !ok {
			return nil, false
		}
		b, err := json.Marshal(ids)
		return b, err == nil
	},
	Decode: func(b []byte) (any, bool) {
		var ids []int
		return ids, json.Unmarshal(b, &ids) == nil
	},
}

// A shared cache writes what its codec carries to the store and counts what it cannot;
// a local miss is looked up in the store (Get), not by GetLocal; a store hit is kept
// locally and tells fleetAccepted of the key's acceptance; SetLocal, SetLocalFor and
// Delete touch this replica's memory only.
func TestSharedCacheThroughStore(t *testing.T) {
	s := &store{val: map[string][]byte{}}
	a, b := NewCache("ids", time.Minute, 10, nil), NewCache("ids", time.Minute, 10, nil)
	var accepted []string
	for _, c := range []*Cache{a, b} {
		c.Share(s, intsCodec)
		c.CheckKeys(func(string) bool { return true }, func(keyHash string, left time.Duration) {
			accepted = append(accepted, keyHash+" "+left.String())
		})
	}
	if !a.Shared() || NewCache("x", time.Minute, 10, nil).Shared() || (*Cache)(nil).Shared() {
		t.Fatal("Shared")
	}
	a.Set("kh|1|x", []int{1, 2})
	a.Set("kh|1|y", "not ints")
	if string(s.val["ids/kh|1|x"]) != "[1,2]" || s.sets != 1 || s.unshareable != 1 {
		t.Fatalf("store %q, %d sets, %d unshareable", s.val, s.sets, s.unshareable)
	}
	if _, ok := b.GetLocal("kh|1|x"); ok || s.gets != 0 {
		t.Fatalf("GetLocal: hit %v, %d store reads", ok, s.gets)
	}
	if v, ok := b.Get("kh|1|x"); !ok || len(v.([]int)) != 2 || s.gets != 1 {
		t.Fatalf("Get through the store: %v, %v, %d store reads", v, ok, s.gets)
	}
	if len(accepted) != 1 || accepted[0] != "kh 3s" {
		t.Fatalf("fleetAccepted heard %q", accepted)
	}
	if _, ok := b.GetLocal("kh|1|x"); !ok {
		t.Fatal("a store hit is not kept locally")
	}
	b.SetLocal("kh|1|mark", []int{3})
	b.SetLocalFor("kh|1|other", []int{4}, time.Hour)
	if s.sets != 1 {
		t.Fatalf("%d store writes after SetLocal and SetLocalFor, want 1", s.sets)
	}
	b.Delete("kh|1|mark")
	if _, ok := b.GetLocal("kh|1|mark"); ok {
		t.Fatal("Delete kept the entry")
	}
	if v, ok := b.GetLocal("kh|1|other"); !ok || v.([]int)[0] != 4 {
		t.Fatalf("SetLocalFor: %v, %v", v, ok)
	}
}
