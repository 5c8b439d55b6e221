// Package restv2 is the REST API v2 contract, everything a caller of REST v2 sees and
// nothing of how it is answered (no NerdGraph, no net/http, no other package of this
// module):
//
//   - the resource models with their exact JSON/XML field names and order
//     (application.go, deployments.go, conditions.go, metrics.go, ...): each document's
//     EncodeV2 is the one description of its key order and element names, Root names
//     its XML root;
//   - request parameters (params.go: filters, names[], values[], from/to, page;
//     timeparse.go) and request bodies (bodies.go, conditionbody.go,
//     deploymentbody.go: the shapes REST accepted, JSON, XML or form, decoded by
//     decode.go's lenient JSON rules and validated as REST did; bodytext.go: the text
//     rules every write body's strings meet);
//   - errors and every HTTP status an answer carries (errors.go): success statuses are
//     named constants, each error status has one constructor;
//   - how REST v2 rounds the figures it shows (figures.go);
//   - the two wire formats, compact JSON and indented XML (render.go, json.go, xml.go,
//     numbers.go, with direct writers for the largest answers in application_json.go
//     and metricdata.go), which append to a caller's []byte without reflection.
//
// # JSON
//
//   - The output is one object: the document's top-level values are its members (the
//     document's Root is not used). No indentation and no trailing newline, like the
//     Rails API did.
//   - Members and array items appear exactly in the order EncodeV2 emits them.
//   - Strings follow RFC 8259: '"' and '\' are escaped, control characters use \b \f
//     \n \r \t or \u00XX, U+2028 and U+2029 are written as \u2028 and \u2029 (for
//     JavaScript consumers), every other character stays raw UTF-8, and each byte of
//     invalid UTF-8 becomes U+FFFD. '<', '>' and '&' are not escaped: every JSON
//     parser reads both forms alike and no captured REST v2 body shows the escaped
//     form. (Rails' ActiveSupport escapes them as \u003c, \u003e and \u0026 by
//     default, so the original service may have done so.)
//   - Int is an integer. Float is written with strconv's shortest round-trip digits
//     in plain decimal notation, never with an exponent: whole values have no decimal
//     point (304, 1, 0), others keep their digits (0.0016). -0 is written as 0. NaN
//     and ±Inf have no JSON form and are written as null.
//
// # XML
//
//   - `<?xml version="1.0" encoding="UTF-8"?>`, then one root element, two-space
//     indentation, and a newline after every line, as in the one captured REST v2
//     XML body (metric data).
//   - The root element is named by Document.Root. When Root is "", the single value
//     the document emits is the root (EncodeV2 then runs twice, once to count the
//     top-level values, so it must be deterministic) (the error body {"error":{"title":...}}
//     becomes <error><title>...</title></error>). A root-less document that emits no
//     value, or several, is wrapped in <hash>, the root Rails' Hash#to_xml uses when
//     it is given none; the 429 body {} is therefore <hash/>.
//   - Objects and arrays are elements with child elements; element names are the
//     JSON keys, underscores kept. An array item is named by the name passed to its
//     Begin call or scalar call, or, when that is "", by the item name given to
//     BeginArray (or "item" when both are ""). No type="" attributes.
//   - An empty object or array is a self-closing element (<servers/>). null is a
//     self-closing element too (Rails would add nil="true"; no v2 client reads it).
//     An empty string is <name></name>.
//   - Booleans are true/false, ints are integers, floats always carry a decimal point
//     (1.0, 0.5, 304.0, 0.0016; never an exponent; -0 is 0.0) as Ruby printed them.
//     NaN and ±Inf are written like null.
//   - Text escapes '&', '<' and '>' (quotes need no escaping in text and are left
//     alone, as Ruby's Builder did), writes CR as &#xD; so that parsers do not fold it
//     into LF, and replaces characters XML 1.0 forbids (control characters other than
//     tab, LF and CR; U+FFFE; U+FFFF) and invalid UTF-8 by U+FFFD.
//   - Element names: names made only of ASCII letters, digits, '_', '-' and '.' that
//     start with a letter or '_' are used unchanged (application.servers stays). Any
//     other name is sanitised deterministically: every other character (including
//     ':', which namespace-aware parsers would read as a prefix, spaces and non-ASCII
//     letters) becomes '_', and a '_' is prefixed when the name would start with a
//     digit, '-' or '.'; "" becomes "_". So "calls per minute" → calls_per_minute,
//     "95th percentile" → _95th_percentile. Distinct keys can thus collide.
//
// # Unbalanced documents
//
// The renderers (JSON, XML; Renderer by format with ForFormat, pooled buffers with
// GetBuffer/PutBuffer) always produce well-formed output: End calls with nothing open are
// ignored, containers still open when EncodeV2 returns are closed, and an End call
// closes the innermost open container whatever its kind.
package restv2
