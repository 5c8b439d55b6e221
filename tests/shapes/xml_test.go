package shapes

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/v2bridge/v2bridge/gateway"
	"github.com/v2bridge/v2bridge/tests/harness"
)

type xmlNode struct {
	name     string
	children []*xmlNode
	text     string
}

func parseXML(b []byte) (*xmlNode, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []*xmlNode
	var root *xmlNode
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch tt := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: tt.Name.Local}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tt)
			}
		}
	}
}

// mirror checks that an XML element carries the same structure and values as a JSON
// value: object keys as child elements in order, arrays as one child per item, scalars
// as text (numbers compared as numbers: XML writes 1.0 where JSON writes 1).
func mirror(path string, j any, n *xmlNode) error {
	switch v := j.(type) {
	case map[string]any:
		return fmt.Errorf("%s: unordered object", path)
	case orderedObject:
		if len(v.keys) != len(n.children) {
			return fmt.Errorf("%s: %d keys vs %d elements", path, len(v.keys), len(n.children))
		}
		for i, k := range v.keys {
			if n.children[i].name != k {
				return fmt.Errorf("%s: key %q vs element <%s>", path, k, n.children[i].name)
			}
			if err := mirror(path+"."+k, v.vals[i], n.children[i]); err != nil {
				return err
			}
		}
	case []any:
		if len(v) != len(n.children) {
			return fmt.Errorf("%s: %d items vs %d elements", path, len(v), len(n.children))
		}
		for i := range v {
			if err := mirror(fmt.Sprintf("%s[%d]", path, i), v[i], n.children[i]); err != nil {
				return err
			}
		}
	case json.Number:
		a, _ := v.Float64()
		b, err := strconv.ParseFloat(strings.TrimSpace(n.text), 64)
		if err != nil || a != b {
			return fmt.Errorf("%s: %s vs %q", path, v, n.text)
		}
	case string:
		if n.text != v {
			return fmt.Errorf("%s: %q vs %q", path, v, n.text)
		}
	case bool:
		if n.text != strconv.FormatBool(v) {
			return fmt.Errorf("%s: %v vs %q", path, v, n.text)
		}
	case nil:
		if len(n.children) != 0 || strings.TrimSpace(n.text) != "" {
			return fmt.Errorf("%s: null vs non-empty element", path)
		}
	}
	return nil
}

type orderedObject struct {
	keys []string
	vals []any
}

// decodeOrdered decodes JSON keeping object key order.
func decodeOrdered(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var o orderedObject
			for d.More() {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeOrdered(d)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, k.(string))
				o.vals = append(o.vals, v)
			}
			_, err := d.Token()
			return o, err
		case '[':
			arr := []any{}
			for d.More() {
				v, err := decodeOrdered(d)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := d.Token()
			return arr, err
		}
	}
	return tok, nil
}

// Every .xml answer mirrors its .json twin, under a <resource>_response root (or the
// error's own root).
func TestXMLMirrorsJSON(t *testing.T) {
	h := harness.Start(t, gateway.Config{})
	get := func(path string) (int, []byte) {
		req, _ := http.NewRequest(http.MethodGet, h.Gateway.URL+path, nil)
		req.Header.Set("X-Api-Key", harness.Key1)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	var inst struct {
		Instances []struct{ ID json.Number } `json:"application_instances"`
	}
	_, b := get("/v2/applications/" + app + "/instances.json")
	_ = json.Unmarshal(b, &inst)
	var hosts struct {
		Hosts []struct{ ID json.Number } `json:"application_hosts"`
	}
	_, b = get("/v2/applications/" + app + "/hosts.json")
	_ = json.Unmarshal(b, &hosts)
	paths := []string{
		"/v2/applications{f}?filter[name]=checkout",
		"/v2/applications/924224343{f}",
		"/v2/applications/" + app + "/hosts{f}",
		"/v2/applications/" + app + "/hosts/" + hosts.Hosts[0].ID.String() + "{f}",
		"/v2/applications/" + app + "/instances{f}",
		"/v2/applications/" + app + "/instances/" + inst.Instances[0].ID.String() + "{f}",
		"/v2/applications/" + app + "/metrics{f}?name=Apdex",
		"/v2/applications/" + app + "/metrics/data{f}?names[]=Apdex&names[]=HttpDispatcher&names[]=Nope&from=2026-11-20T11:55:00Z&to=2026-11-20T11:58:00Z",
		"/v2/applications/" + app + "/deployments{f}",
		"/v2/browser_applications{f}?filter[name]=reilly",
		"/v2/mobile_applications{f}",
		"/v2/mobile_applications/601483762{f}",
		"/v2/key_transactions{f}?filter[name]=order",
		"/v2/key_transactions/3002{f}",
		"/v2/alerts_nrql_conditions{f}?policy_id=1001",
		"/v2/alerts_conditions{f}?policy_id=1004",
		"/v2/applications/1{f}",
		"/v2/servers{f}",
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			js, jb := get(strings.Replace(p, "{f}", ".json", 1))
			xs, xb := get(strings.Replace(p, "{f}", ".xml", 1))
			if js != xs {
				t.Fatalf("status %d vs %d", js, xs)
			}
			dec := json.NewDecoder(bytes.NewReader(jb))
			dec.UseNumber()
			j, err := decodeOrdered(dec)
			if err != nil {
				t.Fatal(err)
			}
			root, err := parseXML(xb)
			if err != nil {
				t.Fatalf("XML not well-formed: %v\n%s", err, xb)
			}
			o := j.(orderedObject)
			if len(o.keys) == 1 && o.keys[0] == "error" {
				if err := mirror("$", o.vals[0], root); err != nil || root.name != "error" {
					t.Fatalf("error body: <%s> %v", root.name, err)
				}
				return
			}
			if !strings.HasSuffix(root.name, "_response") {
				t.Fatalf("root <%s>", root.name)
			}
			if err := mirror("$", o, root); err != nil {
				t.Fatal(err)
			}
		})
	}
}
