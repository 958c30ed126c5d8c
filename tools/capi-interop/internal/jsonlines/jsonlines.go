// Package jsonlines decodes the one-JSON-object-per-line output the interop commands print, for their tests.
package jsonlines

import (
	"encoding/json"
	"strings"
	"testing"
)

// Decode returns every non-empty line of out decoded as a T; a line that does not decode fails the test.
func Decode[T any](t testing.TB, out string) []T {
	t.Helper()
	var values []T
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("bad output line %q: %v", line, err)
		}
		values = append(values, v)
	}
	return values
}
