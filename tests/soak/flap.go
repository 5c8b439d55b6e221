package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// flapTTL is the soak gateway's rejected-key TTL, short so that a refused key's healing
// costs the soak seconds (the production default is 30 s).
const flapTTL = 3 * time.Second

// flapReport is what a caller saw polling after NerdGraph refused its key once.
type flapReport struct {
	ran      bool
	polls    int
	healedAt time.Duration // since the refusal; 0: never
}

// runFlap has NerdGraph refuse the multi-account key once (refuseOnce), then polls an
// uncached read with it every flapTTL/6 until it is answered 200 or twice flapTTL has
// passed.
func runFlap(ctx context.Context, hc *http.Client, gwURL string, refuseOnce *atomic.Bool) flapReport {
	fr := flapReport{ran: true}
	refuseOnce.Store(true)
	start := time.Now()
	tick := time.NewTicker(flapTTL / 6)
	defer tick.Stop()
	for since := time.Duration(0); since < 2*flapTTL; since = time.Since(start) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, gwURL+"/v2/applications.json?filter[name]=flap", nil)
		req.Header.Set("X-Api-Key", keyMulti)
		req.Header.Set("X-Account-ID", "1000001")
		resp, err := hc.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			fr.polls++
			if resp.StatusCode == http.StatusOK && fr.polls > 1 {
				fr.healedAt = since
				return fr
			}
		}
		select {
		case <-ctx.Done():
			return fr
		case <-tick.C:
		}
	}
	return fr
}

func (fr flapReport) print() {
	if fr.ran {
		fmt.Printf("refused once: %d polls, answered again %s after the refusal (rejected-key TTL %s)\n",
			fr.polls, fr.healedAt.Round(100*time.Millisecond), flapTTL)
	}
}

// problems: the key did not heal within the TTL and a recheck, or healed before the TTL
// (the rejected-key cache did not hold it).
func (fr flapReport) problems() []string {
	switch {
	case !fr.ran:
		return nil
	case fr.healedAt == 0:
		return []string{fmt.Sprintf("a key NerdGraph refused once was still refused %s later", 2*flapTTL)}
	case fr.healedAt < flapTTL-flapTTL/6:
		return []string{fmt.Sprintf("a key NerdGraph refused was answered %s later, within the rejected-key TTL", fr.healedAt)}
	}
	return nil
}
