package restdouble

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
)

// Condition is a legacy metric condition with its entity ids (strings, as REST sent
// them: newrelic/newrelic-client-go pkg/alerts/conditions.go).
type Condition struct {
	ID       int64    `json:"id"`
	Type     string   `json:"type"`
	Name     string   `json:"name"`
	Enabled  bool     `json:"enabled"`
	Entities []string `json:"entities"`
	Metric   string   `json:"metric"`
	PolicyID int64    `json:"-"`
}

// Policy is an alerts policy.
type Policy struct {
	ID                 int64  `json:"id"`
	Name               string `json:"name"`
	IncidentPreference string `json:"incident_preference"`
}

// Request is one request the double received.
type Request struct {
	Method, Path, RawQuery, APIKey string
}

// Server is a running double.
type Server struct {
	*httptest.Server

	mu         sync.Mutex
	policies   []Policy
	conditions []*Condition
	requests   []Request
}

// Start runs a double holding the given policies and conditions until the test ends.
func Start(t TB, policies []Policy, conditions []*Condition) *Server {
	t.Helper()
	s := &Server{policies: policies, conditions: conditions}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests are the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Condition returns the condition with id (nil when unknown).
func (s *Server) Condition(id int64) *Condition {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conditions {
		if c.ID == id {
			cp := *c
			cp.Entities = append([]string(nil), c.Entities...)
			return &cp
		}
	}
	return nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("X-Api-Key")
	if key == "" {
		key = r.Header.Get("Api-Key")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, APIKey: key})
	if key == "" {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]string{"title": "No API key specified"}})
		return
	}
	p := strings.TrimSuffix(r.URL.Path, ".json")
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodGet && p == "/v2/alerts_policies":
		out := []Policy{}
		for _, pol := range s.policies {
			if f := q.Get("filter[name]"); f == "" || strings.Contains(strings.ToLower(pol.Name), strings.ToLower(f)) {
				out = append(out, pol)
			}
		}
		w.Header().Set("Link", "<"+s.URL+"/v2/alerts_policies.json?page=1>; rel=\"first\"")
		writeJSON(w, http.StatusOK, map[string]any{"policies": out})
	case r.Method == http.MethodGet && p == "/v2/alerts_conditions":
		pid, _ := strconv.ParseInt(q.Get("policy_id"), 10, 64)
		out := []*Condition{}
		for _, c := range s.conditions {
			if c.PolicyID == pid {
				out = append(out, c)
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"conditions": out})
	case strings.HasPrefix(p, "/v2/alerts_entity_conditions/"):
		s.entityConditions(w, r.Method, strings.TrimPrefix(p, "/v2/alerts_entity_conditions/"), q.Get("entity_type"), q.Get("condition_id"))
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]string{"title": "Route not found"}})
	}
}

func (s *Server) entityConditions(w http.ResponseWriter, method, entity, typ, condition string) {
	if typ != "Application" && typ != "BrowserApplication" && typ != "MobileApplication" && typ != "KeyTransaction" {
		writeJSON(w, http.StatusNotAcceptable, map[string]any{"error": map[string]string{"title": "Bad entity type"}})
		return
	}
	if method == http.MethodGet {
		out := []*Condition{}
		for _, c := range s.conditions {
			for _, e := range c.Entities {
				if e == entity {
					out = append(out, c)
				}
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"conditions": out})
		return
	}
	id, _ := strconv.ParseInt(condition, 10, 64)
	for _, c := range s.conditions {
		if c.ID != id {
			continue
		}
		kept := []string{}
		for _, e := range c.Entities {
			if e != entity {
				kept = append(kept, e)
			}
		}
		if method == http.MethodPut {
			kept = append(kept, entity)
		}
		c.Entities = kept
		writeJSON(w, http.StatusOK, map[string]any{"condition": c})
		return
	}
	writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]string{"title": "No Alerts condition was found with the given ID"}})
}
