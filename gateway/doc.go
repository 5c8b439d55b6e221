// Package gateway is v2bridge's HTTP edge: the server and its lifecycle, the gorilla/mux
// table of REST v2 routes (with their declared fidelity), middleware (request ids, panic
// recovery, access log, timing), API-key extraction and account resolution, parameter
// merging (query string, form bodies on GET, JSON bodies), format selection by path
// extension, v2 error bodies and Link-header paging. Handlers hold no business logic:
// they parse, call translate, and hand the v2 model to gateway/render.
package gateway
