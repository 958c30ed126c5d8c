package parity

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Prefixes of the Failures Cluster API's server SDK answers before any handler runs: a request it cannot read whole
// (beyond 20 MiB), or one it cannot unmarshal.
var refusedPrefixes = []string{"error reading request: ", "error unmarshalling request: "}

// Refusal returns the rest of a Failure message of the server SDK's own refusals, or false.
func Refusal(message string) (string, bool) {
	for _, p := range refusedPrefixes {
		if rest, ok := strings.CutPrefix(message, p); ok {
			return p + rest, true
		}
	}
	return "", false
}

// Answer is what a server answered to a case: its handlers echo the request they read as their message.
type Answer struct {
	// Refused: status Failure saying the request was not read (see Refusal); Message is then that message.
	Refused bool   `json:"refused"`
	Message string `json:"message"`
	// Error is set when the server did not answer a decodable Success or unmarshalling Failure.
	Error string `json:"error,omitempty"`
}

// Outcome of one case.
type Outcome struct {
	// Problem is "" when the servers agree, else "verdict", "value" or "message".
	Problem string `json:"problem"`
	Detail  string `json:"detail,omitempty"`
}

// Compare judges the answers of Cluster API's server (goAnswer) and of the server under test (ours) to a request
// body of the hook's type: the same verdict; for a request both accept, the same request read by both handlers (the
// body as Go's handler reads it, decoded here as the server SDK decodes it, and our echo read into the same Go type,
// compared as JSON); for one both refuse, the same reason in Go's words.
func Compare(newRequest func() any, body []byte, goAnswer, ours Answer) Outcome {
	if goAnswer.Error != "" || ours.Error != "" {
		return Outcome{Problem: "verdict", Detail: fmt.Sprintf("go: %s / ours: %s", clip(goAnswer.Error), clip(ours.Error))}
	}
	if goAnswer.Refused != ours.Refused {
		return Outcome{Problem: "verdict", Detail: fmt.Sprintf("go refused: %v (%s) / ours refused: %v (%s)", goAnswer.Refused, clip(goAnswer.Message), ours.Refused, clip(ours.Message))}
	}
	if goAnswer.Refused {
		if !sameReason(goAnswer.Message, ours.Message) {
			return Outcome{Problem: "message", Detail: fmt.Sprintf("go: %s / ours: %s", clip(goAnswer.Message), clip(ours.Message))}
		}
		return Outcome{}
	}
	a, err := readAs(newRequest, string(body))
	if err != nil {
		return Outcome{Problem: "value", Detail: "go decoding the body: " + err.Error()}
	}
	b, err := readAs(newRequest, ours.Message)
	if err != nil {
		return Outcome{Problem: "value", Detail: "our echo: " + err.Error()}
	}
	if a != b {
		return Outcome{Problem: "value", Detail: firstDifference(a, b)}
	}
	return Outcome{}
}

// readAs decodes a request into the hook's Go type, as Go's handler reads it, and writes it as JSON with sorted keys
// and numbers as float64 (raw JSON fields compare by value, not by spelling; -0 is 0, as JSON.stringify writes it).
func readAs(newRequest func() any, text string) (string, error) {
	typed := newRequest()
	if err := json.Unmarshal([]byte(text), typed); err != nil {
		return "", err
	}
	b, err := json.Marshal(typed)
	if err != nil {
		return "", err
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return "", err
	}
	out, err := json.Marshal(withoutNegativeZero(generic))
	return string(out), err
}

func withoutNegativeZero(v any) any {
	switch v := v.(type) {
	case float64:
		if v == 0 {
			return 0.0
		}
	case []any:
		for i := range v {
			v[i] = withoutNegativeZero(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = withoutNegativeZero(v[k])
		}
	}
	return v
}

var (
	// Go: json: cannot unmarshal <value> into Go struct field <Struct>.<field.path> of type <type>
	goTypeError = regexp.MustCompile(`^json: cannot unmarshal (.+) into Go (?:struct field [^.]*\.(\S+)|value) of type (\S+)$`)
	// Ours: <path>: json: cannot unmarshal <value> into Go value of type <type>
	ourTypeError = regexp.MustCompile(`^(?:(.+): )?json: cannot unmarshal (.+) into Go value of type (\S+)$`)
	embedded     = regexp.MustCompile(`(^|\.)(TypeMeta|CommonRequest|CommonResponse|CommonRetryResponse)\.`)
	indices      = regexp.MustCompile(`\[[^\]]*\]`)
)

// sameReason: both refusals say the same thing, in Go's words. Go names a field by its struct and json names
// without list indices or map keys, ours by its path; a type of Cluster API's own name is named by what it is (see
// sameType); a number is compared by value (a JavaScript number prints 1e21, Go the literal).
func sameReason(goMessage, ours string) bool {
	if goMessage == ours {
		return true
	}
	const unmarshalling, reading = "error unmarshalling request: ", "error reading request: "
	if strings.HasPrefix(goMessage, reading) && strings.HasPrefix(ours, reading) {
		return true // a body beyond 20 MiB, in each server's words
	}
	goMessage, goOK := strings.CutPrefix(goMessage, unmarshalling)
	ours, ourOK := strings.CutPrefix(ours, unmarshalling)
	if !goOK || !ourOK {
		return false
	}
	g := goTypeError.FindStringSubmatch(goMessage)
	o := ourTypeError.FindStringSubmatch(ours)
	if g == nil || o == nil {
		// A parser's error (timestamps, base64): Go's words after our path.
		return strings.HasSuffix(ours, ": "+goMessage)
	}
	goField := embedded.ReplaceAllString(g[2], "$1")
	ourField := indices.ReplaceAllString(o[1], "")
	return goField == ourField && sameValue(g[1], o[2]) && sameType(g[3], o[3])
}

func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	na, okA := strings.CutPrefix(a, "number ")
	nb, okB := strings.CutPrefix(b, "number ")
	fa, errA := strconv.ParseFloat(na, 64)
	fb, errB := strconv.ParseFloat(nb, 64)
	return okA && okB && errA == nil && errB == nil && fa == fb
}

// sameType: Go names a type of Cluster API's own name (v1beta2.ConditionType, v1beta2.Conditions) where the
// definitions only say what it is (string, []v1beta2.Condition).
func sameType(goType, ours string) bool {
	named := !strings.ContainsAny(goType, "[]*") && strings.Contains(goType, ".")
	return goType == ours || (named && (ours == "string" || strings.HasPrefix(ours, "[]") || strings.HasPrefix(ours, "map[")))
}

func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("go reads ...%s... / ours ...%s...", clip(a[from:min(len(a), i+120)]), clip(b[from:min(len(b), i+120)]))
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "..."
	}
	return s
}

// NewOf returns a constructor of a fresh value of the type of v (a pointer).
func NewOf(v any) func() any {
	t := reflect.TypeOf(v).Elem()
	return func() any { return reflect.New(t).Interface() }
}
