// Ports of Go's standard library, one module per Go package, with Go's semantics and error texts, for every layer
// (like src/errors, it imports nothing else of the project): what Cluster API and Kubernetes compute in Go and we
// must compute the same way. regexp: Go's regular expressions, linear in time whatever the pattern (re-exported
// here). The others are imported from their modules, whose names would clash here: strconv.ts, strings.ts, utf8.ts,
// json.ts (encoding/json's marshalling rules), base64.ts (encoding/base64), time.ts, url.ts (net/url), netip.ts.
export { compile, matchString, quoteMeta, type Regexp, RegexpSyntaxError } from './regexp.js'
