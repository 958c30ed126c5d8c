// Package capischemas holds this module's go.mod and go.sum, which the generator
// writes into a scratch directory so that controller-tools' loader (which runs
// `go list`) resolves exactly the module versions this binary was built with,
// wherever the binary is run from.
package capischemas

import _ "embed"

// GoMod is this module's go.mod.
//
//go:embed go.mod
var GoMod []byte

// GoSum is this module's go.sum.
//
//go:embed go.sum
var GoSum []byte
