// Package shapes compares the shape of the gateway's answers (keys, nesting, JSON
// types, integers where REST had integers) with REST v2 example payloads, and checks
// that every .xml answer mirrors its JSON twin element for element. Every difference is
// either absent or declared here with its reason (and in the README's fidelity table).
package shapes
