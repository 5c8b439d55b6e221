package restv2

import "time"

// Encoder receives a v2 document as an ordered stream of named values. The JSON and XML
// renderers (json.go, xml.go) implement it, so one description of a resource (its
// EncodeV2 method) yields both wire formats with REST v2's key order and element names.
//
// Names: inside an object, name is the JSON key / XML element name. Inside an array,
// the name passed to the item calls is ignored by JSON and used by XML as the
// singular element name (BeginArray's item argument is the default for scalar items).
type Encoder interface {
	// BeginObject opens an object value named name (ignored for the document root
	// in JSON; the XML root element name is given to the renderer separately).
	BeginObject(name string)
	EndObject()
	// BeginArray opens an array named name whose items are elements named item in XML.
	BeginArray(name, item string)
	EndArray()
	Int(name string, v int64)
	// Float renders whole values without a decimal point in JSON (304, not 304.0)
	// and with one in XML (1.0), as REST v2 did.
	Float(name string, v float64)
	String(name string, v string)
	Bool(name string, v bool)
	Null(name string)
	// Time renders t as a string in TimeLayout, in UTC (what FormatTime returns),
	// appended in place rather than through an intermediate string.
	Time(name string, t time.Time)
}

// Document is a complete v2 response body. The JSON renderer wraps EncodeV2's output in
// the top-level object; the XML renderer wraps it in an element named Root()
// (e.g. "applications_response"). When Root() is "", EncodeV2 must emit exactly one
// object, and XML uses that object's element as the document root (the v2 error body
// {"error":{"title":...}} renders as <error><title>...</title></error>).
type Document interface {
	Root() string
	EncodeV2(e Encoder)
}
