package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Hostile patterns that hold CPU or in-flight slots rather than memory, run beside the
// random-key flood: deep pages asked with a valid key, and POST bodies trickled at a
// byte a second with made-up keys (more connections than the unauthenticated pool
// holds). The healthy keys' load runs meanwhile; their answers are judged with the
// outage's.
const (
	slowBodyConns = 80
	deepPageLimit = 2 * time.Second // a deep page answered slower than this is a problem
)

type abuseReport struct {
	ran           bool
	deep          int
	deepStatuses  map[int]int
	deepMax       time.Duration
	slowOpened    int
	slowStatuses  map[int]int
	slowCutBefore int // slow bodies answered while they still trickled (408 or 503)
}

func runAbuse(ctx context.Context, hc *http.Client, gwURL string) abuseReport {
	ab := abuseReport{ran: true, deepStatuses: map[int]int{}, slowStatuses: map[int]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // deep pages, one after another
		defer wg.Done()
		for ctx.Err() == nil {
			page := 1_000_000 + rand.IntN(999_000_000)
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/v2/applications.json?page=%d", gwURL, page), nil)
			req.Header.Set("X-Api-Key", key1)
			start := time.Now()
			resp, err := hc.Do(req)
			if err != nil {
				continue
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			ab.deep++
			ab.deepStatuses[resp.StatusCode]++
			ab.deepMax = max(ab.deepMax, time.Since(start))
			mu.Unlock()
		}
	}()
	addr := strings.TrimPrefix(gwURL, "http://")
	for range slowBodyConns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				status, ok := slowBody(ctx, addr)
				if !ok {
					continue
				}
				mu.Lock()
				ab.slowOpened++
				ab.slowStatuses[status]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ab
}

// slowBody sends a POST whose body announces 1,000 bytes and trickles one a second
// until the gateway answers or ctx ends; it returns the answer's status (0: none).
func slowBody(ctx context.Context, addr string) (int, bool) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, false
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	fmt.Fprintf(conn, "POST /v2/applications/1/deployments.json HTTP/1.1\r\nHost: soak\r\nX-Api-Key: NRAK-%016x\r\n"+
		"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n", rand.Uint64())
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case s := <-answered:
			return s, true
		case <-ctx.Done():
			return 0, true
		case <-tick.C:
			if _, err := conn.Write([]byte("x")); err != nil {
				return <-answered, true
			}
		}
	}
}

func (ab abuseReport) print() {
	if !ab.ran {
		return
	}
	fmt.Printf("deep pages: %d requests, statuses %v, slowest %s; slow bodies: %d connections, answers %v\n",
		ab.deep, ab.deepStatuses, ab.deepMax.Round(time.Millisecond), ab.slowOpened, ab.slowStatuses)
}

// problems: a deep page not answered 200 promptly, or a slow body answered 200.
func (ab abuseReport) problems() []string {
	if !ab.ran {
		return nil
	}
	var out []string
	if n := ab.deep - ab.deepStatuses[http.StatusOK]; n > 0 {
		out = append(out, fmt.Sprintf("%d deep pages were not answered 200", n))
	}
	if ab.deepMax > deepPageLimit {
		out = append(out, fmt.Sprintf("a deep page took %s (limit %s)", ab.deepMax.Round(time.Millisecond), deepPageLimit))
	}
	if n := ab.slowStatuses[http.StatusOK] + ab.slowStatuses[http.StatusCreated]; n > 0 {
		out = append(out, fmt.Sprintf("%d slow bodies with made-up keys were accepted", n))
	}
	return out
}
