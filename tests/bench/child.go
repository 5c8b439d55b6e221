package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap/zapcore"

	ng "github.com/v2bridge/v2bridge/graphql"
	"github.com/v2bridge/v2bridge/translate"
)

// child is a server under test running in a process of its own.
type child struct {
	url   string // where it serves
	stats string // where it reports its memory
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// memory is what a child reports of itself.
type memory struct {
	Mallocs    uint64  `json:"mallocs"`
	TotalAlloc uint64  `json:"total_alloc"`
	PeakRSSMB  float64 `json:"peak_rss_mb"`
	CPUNanos   int64   `json:"cpu_ns"`
}

// startChild re-executes this binary with -serve kind and waits for its addresses.
// The child lives until its standard input closes (stop, or this process ending).
// With profileDir set, the child writes its CPU profile to profileDir/<kind>.pprof.
func startChild(kind, upstream, bodyFile, profileDir string, flags ...string) (*child, error) {
	args := append([]string{"-serve", kind, "-upstream", upstream, "-body", bodyFile, "-cpuprofile", profileDir}, flags...)
	c, addrs, err := launch(kind, args, nil, 2)
	if err != nil {
		return nil, err
	}
	c.url, c.stats = addrs[0], addrs[1]
	return c, nil
}

// launch starts this binary again with args (and env added to this process's
// environment), reads the first line it prints and returns the child with that line's
// fields, which must be want addresses.
func launch(kind string, args, env []string, want int) (*child, []string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("own executable: %w", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("child stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("child stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("start %s: %w", kind, err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addrs := strings.Fields(line)
	if err != nil || len(addrs) != want {
		_ = stdin.Close()
		_ = cmd.Wait()
		return nil, nil, fmt.Errorf("%s did not report its addresses (%q): %v", kind, line, err)
	}
	return &child{cmd: cmd, stdin: stdin}, addrs, nil
}

func (c *child) mem() (memory, error) {
	var m memory
	resp, err := http.Get(c.stats)
	if err != nil {
		return m, fmt.Errorf("child memory: %w", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return m, fmt.Errorf("child memory: %w", err)
	}
	return m, nil
}

func (c *child) stop() {
	_ = c.stdin.Close()
	_ = c.cmd.Wait()
}

// serveChild is the child's side: serve one server under test and, on a second
// listener, this process's allocation counters and peak RSS; exit when stdin closes.
func serveChild(kind, upstream, bodyFile, profileDir, logLevel, floorRequest string) error {
	level, err := zapcore.ParseLevel(logLevel)
	if err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	var h http.Handler
	switch kind {
	case "gateway", "gateway-cached":
		h = newGatewayWith(upstream, kind == "gateway-cached", 0, level)
	case "gateway-scale":
		h = newGatewayOpts(upstream, translate.Options{MetricNamesWindow: 10 * time.Minute, MetricDataTTL: -1, EntityTTL: -1},
			zapcore.InfoLevel, scaleTimeout)
	case "gateway-journeys": // as deployed: the default caches and timeouts
		h = newGatewayOpts(upstream, translate.Options{}, zapcore.InfoLevel, 0)
	case "gateway-scale-like": // name_filter: like
		h = newGatewayOpts(upstream, translate.Options{MetricNamesWindow: 10 * time.Minute, MetricDataTTL: -1, EntityTTL: -1, NameLike: true},
			zapcore.InfoLevel, scaleTimeout)
	case "plain":
		body, err := os.ReadFile(bodyFile)
		if err != nil {
			return err
		}
		h = newPlain(body)
	case "floor":
		path, query, _ := strings.Cut(floorRequest, "?")
		f, err := newFloorFromFiles(bodyFile, path, query, level) // floor.go
		if err != nil {
			return err
		}
		h = f
	case "proxy":
		target, err := url.Parse(upstream)
		if err != nil {
			return err
		}
		h = newProxy(target)
	default:
		return fmt.Errorf("unknown server %q", kind)
	}
	if profileDir != "" {
		stopProfile, err := profileCPU(filepath.Join(profileDir, kind+".pprof"))
		if err != nil {
			return err
		}
		defer stopProfile()
	}
	addr, stop := serveOn(serverFor(kind, h))
	defer stop()
	stats, stopStats := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		_ = json.NewEncoder(w).Encode(memory{Mallocs: ms.Mallocs, TotalAlloc: ms.TotalAlloc, PeakRSSMB: peakRSS(), CPUNanos: cpuTime()})
	}))
	defer stopStats()
	fmt.Println(addr, stats)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// newProxy is the ReverseProxy baseline: it forwards the GraphQL request to target
// over a transport configured exactly like the gateway's own NerdGraph transport
// (graphql.NewTransport: the same idle pool and timeouts), so the ratio measures the
// gateway's work and not a handicapped peer. http.DefaultTransport keeps 2 idle
// connections per host, so at 50 connections the proxy would dial for almost every
// request. TestProxyTransportMatchesGateway fails if the two drift apart.
func newProxy(target *url.URL) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite:    func(pr *httputil.ProxyRequest) { pr.SetURL(target); pr.Out.URL.Path = "/graphql" },
		Transport:  ng.NewTransport(),
		BufferPool: &pool{},
	}
}

// profileCPU profiles this process into file until the returned stop is called.
func profileCPU(file string) (func(), error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}

// newPlain is the plain server: the physical limit for a v2 answer. It answers body
// with its length, so a body larger than net/http's 2 KiB response buffer is not sent
// chunked (a chunk header and a last write for the terminating chunk more), as the
// gateway's is not either; the header values are built once (net/http copies them per
// response).
func newPlain(body []byte) http.Handler {
	contentType := []string{"application/json"} // the gateway's (render.ContentTypeJSON)
	contentLength := []string{strconv.Itoa(len(body))}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		hdr := w.Header()
		hdr["Content-Type"] = contentType
		hdr["Content-Length"] = contentLength
		_, _ = w.Write(body)
	})
}
