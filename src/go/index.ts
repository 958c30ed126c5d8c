// Ports of Go's standard library, one module per Go package, with Go's semantics and error texts, for every layer
// (like src/errors, it imports nothing else of the project): what Cluster API and Kubernetes compute in Go and we
// must compute the same way. regexp: Go's regular expressions, linear in time whatever the pattern.
export { compile, matchString, quoteMeta, type Regexp, RegexpSyntaxError } from './regexp.js'
