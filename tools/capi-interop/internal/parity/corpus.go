// Package parity proves that a Runtime Extension reads hook requests exactly as Cluster API's Go server SDK does:
// a corpus of requests per hook (valid ones filled from Cluster API's types, and each of them mutated once at a
// random place chosen along the Go types: wrong JSON types at every depth, fractions and out-of-range integers, bad
// and odd-but-valid timestamps and int-or-strings, unknown fields, null, strings the CRDs refuse, huge arrays and
// maps, nesting around Go's limit of 10,000 levels, keys in another letter case or given twice), and the comparison
// of what two servers answer to each: whether they accept it, in which words they refuse it, and what their
// handlers read.
package parity

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"reflect"
	"strings"

	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// MaxDepth is Go's encoding/json nesting limit.
const MaxDepth = 10000

// Differences a TypeScript server is allowed to have, as listed in runtime-sdk's README ("Differences from
// Cluster API"); a case carries the one its mutation exercises.
const (
	// CaseVariantKey: a key differing from a field name only in letter case; Go reads it as the field, runtime-sdk refuses it.
	CaseVariantKey = "case-variant-key"
	// DuplicateKey: a key given twice; Go reads both (merging objects), runtime-sdk the last one.
	DuplicateKey = "duplicate-key"
	// Int64BeyondJS: an int64 from 2^53 on (within int64); Go reads it, runtime-sdk refuses it (a JavaScript number would round it).
	Int64BeyondJS = "int64-beyond-2^53"
	// IntegralLiteral: an integer written with a fraction or an exponent (2.0, 1e2) where Go wants an integer; Go
	// refuses it, runtime-sdk reads the integer (JSON.parse does not keep the literal).
	IntegralLiteral = "integral-literal"
)

// Case is one request of the corpus.
type Case struct {
	Hook string
	// Name is "<index>-<mutation>".
	Name string
	// Mutation says what was changed: "valid", "null", "wrong-type", "number", "timestamp", ...
	Mutation string
	// Path is where (keys from the root, "" for the root).
	Path string
	// Difference is the listed difference the case exercises, or "".
	Difference string
	Body       []byte
}

type rng struct{ *rand.Rand }

func newRNG(seed int64, parts ...string) rng {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d", seed)
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return rng{rand.New(rand.NewSource(int64(h.Sum64())))}
}

func (r rng) chance(p float64) bool { return r.Float64() < p }

func pick[T any](r rng, options ...T) T { return options[r.Intn(len(options))] }

// Bases is how many valid requests of a hook the corpus mutates in turn: case i mutates request i % Bases.
const Bases = 250

// Corpus returns n cases of a hook; each depends only on (seed, hook, index).
func Corpus(hook string, seed int64, n int) ([]Case, error) {
	h, ok := samples.Lookup(hook)
	if !ok {
		return nil, fmt.Errorf("unknown hook %q", hook)
	}
	bases := make([]*node, min(n, Bases))
	for i := range bases {
		name := fmt.Sprintf("parity-%05d", i)
		req, err := randomized.Request(h.Name, seed, "random-"+name)
		if err != nil {
			return nil, err
		}
		if newRNG(seed, "status", h.Name, name).chance(0.3) {
			randomized.WithStatus(req, seed, h.Name, name)
		}
		body, err := json.Marshal(req)
		if err != nil {
			return nil, err
		}
		if bases[i], err = parse(body); err != nil {
			return nil, err
		}
	}
	goType := reflect.TypeOf(h.NewRequest()).Elem()
	out := make([]Case, 0, n)
	for i := 0; i < n; i++ {
		r := newRNG(seed, "mutation", h.Name, fmt.Sprint(i))
		m := mutator{r: r, root: bases[i%len(bases)].copy()}
		c := Case{Hook: h.Name, Mutation: "valid"}
		if !r.chance(0.08) {
			c.Mutation, c.Path, c.Difference = m.mutate(goType)
		}
		c.Name = fmt.Sprintf("%05d-%s", i, c.Mutation)
		c.Body = m.root.bytes()
		out = append(out, c)
	}
	return out, nil
}

// spot is a place in the tree, with the Go type that decodes what is there.
type spot struct {
	parent *node // nil for the root
	key    string
	index  int
	typ    reflect.Type
	// depth is the nesting level a container put here has (the root is 1).
	depth int
	path  []string
}

func (s spot) value(root *node) *node {
	switch {
	case s.parent == nil:
		return root
	case s.parent.kind == 'o':
		return s.parent.get(s.key)
	default:
		return s.parent.items[s.index]
	}
}

type mutator struct {
	r    rng
	root *node
}

func (m *mutator) put(s spot, value *node) {
	switch {
	case s.parent == nil:
		m.root = value
	case s.parent.kind == 'o':
		s.parent.set(s.key, value)
	default:
		s.parent.items[s.index] = value
	}
}

// spots lists every place of the tree along the Go types: each value, each field of a struct whether it is there
// or not, the first elements of a list and values of a map; a value Go decodes as a whole (a string, a timestamp,
// raw JSON) is not entered.
func spots(root *node, t reflect.Type) []spot {
	var out []spot
	var visit func(s spot, value *node)
	visit = func(s spot, value *node) {
		out = append(out, s)
		if value == nil {
			return
		}
		child := func(next spot, v *node) {
			next.depth = s.depth + 1
			next.path = append(append([]string(nil), s.path...), next.key)
			visit(next, v)
		}
		switch kindOf(s.typ) {
		case kindStruct:
			if value.kind == 'o' {
				for _, f := range fieldsOf(deref(s.typ)) {
					child(spot{parent: value, key: f.name, typ: f.typ}, value.get(f.name))
				}
			}
		case kindList:
			if value.kind == 'a' {
				for i := 0; i < len(value.items) && i < 3; i++ {
					child(spot{parent: value, index: i, key: fmt.Sprint(i), typ: deref(s.typ).Elem()}, value.items[i])
				}
			}
		case kindMap:
			if value.kind == 'o' {
				for i := 0; i < len(value.keys) && i < 3; i++ {
					child(spot{parent: value, key: value.keys[i], typ: deref(s.typ).Elem()}, value.items[i])
				}
			}
		}
	}
	visit(spot{typ: t, depth: 1}, root)
	return out
}

// mutations and their weights; each applies to the spots its filter keeps.
var mutations = []struct {
	name   string
	weight int
	fits   func(kind string, value *node) bool
}{
	{"null", 8, anywhere},
	{"wrong-type", 12, anywhere},
	{"deep", 6, anywhere},
	{"number", 14, func(kind string, _ *node) bool { return kind == kindInt32 || kind == kindInt64 || kind == kindAny }},
	{"int-or-string", 6, func(kind string, _ *node) bool { return kind == kindIntOrString }},
	{"timestamp", 12, func(kind string, _ *node) bool { return kind == kindTime }},
	{"crd-string", 8, func(kind string, _ *node) bool { return kind == kindString }},
	{"huge-list", 3, func(kind string, _ *node) bool { return kind == kindList }},
	{"huge-map", 2, func(kind string, v *node) bool { return kind == kindMap && (v == nil || v.kind == 'o') }},
	{"unknown-field", 8, isObject(kindStruct)},
	{"case-variant-key", 7, isObject(kindStruct)},
	{"duplicate-key", 4, func(kind string, v *node) bool {
		return (kind == kindStruct || kind == kindMap) && v != nil && v.kind == 'o' && len(v.keys) > 0
	}},
}

func anywhere(string, *node) bool { return true }

func isObject(want string) func(string, *node) bool {
	return func(kind string, v *node) bool { return kind == want && v != nil && v.kind == 'o' }
}

// mutate changes the tree once; it returns what it did, where, and the listed difference it exercises.
func (m *mutator) mutate(t reflect.Type) (mutation, path, difference string) {
	if m.r.chance(0.02) {
		m.root = raw(pick(m.r, `null`, `[]`, `"request"`, `5`, `true`, `{}`))
		return "root", "", ""
	}
	all := spots(m.root, t)
	total := 0
	for _, mu := range mutations {
		total += mu.weight
	}
	for {
		n := m.r.Intn(total)
		for _, mu := range mutations {
			if n -= mu.weight; n >= 0 {
				continue
			}
			var fitting []spot
			for _, s := range all {
				if mu.fits(kindOf(s.typ), s.value(m.root)) {
					fitting = append(fitting, s)
				}
			}
			if len(fitting) == 0 {
				break
			}
			s := pick(m.r, fitting...)
			return mu.name, strings.Join(s.path, "."), m.apply(mu.name, s)
		}
	}
}

// apply makes one mutation at a spot and returns the listed difference it exercises.
func (m *mutator) apply(mutation string, s spot) string {
	kind := kindOf(s.typ)
	current := s.value(m.root)
	switch mutation {
	case "null":
		m.put(s, raw("null"))
	case "wrong-type":
		m.put(s, raw(pick(m.r, wrongTypes...)))
	case "deep":
		m.put(s, m.deep(s))
	case "number":
		lit := pick(m.r, numbers...)
		m.put(s, raw(lit))
		return numberDifference(lit, kind)
	case "int-or-string":
		v := pick(m.r, intOrStrings...)
		m.put(s, raw(v))
		return numberDifference(v, kindInt32)
	case "timestamp":
		m.put(s, str(m.timestamp()))
	case "crd-string":
		m.put(s, str(m.crdString()))
	case "huge-list":
		m.put(s, m.huge(current))
	case "huge-map":
		obj := &node{kind: 'o'}
		if current != nil {
			obj = current
		}
		n := pick(m.r, 1000, 10000)
		for i := 0; i < n; i++ {
			obj.keys = append(obj.keys, fmt.Sprintf("example.com/key-%d", i))
			obj.items = append(obj.items, str(fmt.Sprintf("value-%d", i)))
		}
		m.put(s, obj)
	case "unknown-field":
		name := pick(m.r, "futureField", "x-unknown", "status2", "Zz", "spec_", "\u0131d")
		var value *node
		switch m.r.Intn(3) {
		case 0:
			value = raw(pick(m.r, wrongTypes...))
		case 1:
			value = m.deep(spot{depth: s.depth + 1})
		default:
			value = raw(`{"nested":{"list":[1,"two",null,{"three":3.5}]}}`)
		}
		current.keys = append(current.keys, name)
		current.items = append(current.items, value)
	case "case-variant-key":
		f := pick(m.r, fieldsOf(deref(s.typ))...)
		value := current.get(f.name)
		if value == nil || m.r.chance(0.3) {
			value = raw(pick(m.r, wrongTypes...))
		}
		current.keys = append(current.keys, otherCase(m.r, f.name))
		current.items = append(current.items, value)
		return CaseVariantKey
	case "duplicate-key":
		i := m.r.Intn(len(current.keys))
		current.keys = append(current.keys, current.keys[i])
		current.items = append(current.items, raw(pick(m.r, append(wrongTypes, "null", string(current.items[i].bytes()))...)))
		return DuplicateKey
	}
	return ""
}

// otherCase is the name with a letter in another case, or a Kelvin sign or long s standing for k or s (Go folds them).
func otherCase(r rng, name string) string {
	if strings.ContainsAny(name, "ks") && r.chance(0.2) {
		if strings.Contains(name, "k") {
			return strings.Replace(name, "k", "\u212a", 1)
		}
		return strings.Replace(name, "s", "\u017f", 1)
	}
	b := []byte(name)
	for tries := 0; tries < 10; tries++ {
		i := r.Intn(len(b))
		switch {
		case b[i] >= 'a' && b[i] <= 'z':
			b[i] -= 'a' - 'A'
			return string(b)
		case b[i] >= 'A' && b[i] <= 'Z':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	return strings.ToUpper(name)
}

// deep is a value nested so that the deepest level is just within Go's limit, just beyond it, or far beyond it.
func (m *mutator) deep(s spot) *node {
	total := pick(m.r, MaxDepth, MaxDepth+1, 100000, MaxDepth-1)
	levels := total - s.depth + 1
	if levels < 1 {
		levels = 1
	}
	if m.r.chance(0.5) {
		return raw(strings.Repeat("[", levels) + strings.Repeat("]", levels))
	}
	return raw(strings.Repeat(`{"a":`, levels-1) + "{}" + strings.Repeat("}", levels-1))
}

// huge is a list of 2,000 to 30,000 copies of its first element (or of strings), at most 1 MiB of them.
func (m *mutator) huge(current *node) *node {
	element := str("x")
	if current != nil && current.kind == 'a' && len(current.items) > 0 {
		element = current.items[0]
	}
	n := min(pick(m.r, 2000, 10000, 30000), (1<<20)/(len(element.bytes())+1))
	items := make([]*node, n)
	for i := range items {
		items[i] = element
	}
	return &node{kind: 'a', items: items}
}

var wrongTypes = []string{`"x"`, `""`, `7`, `2.5`, `-1`, `true`, `false`, `{}`, `[]`, `{"a":1}`, `[1,"a",null]`, `[{}]`}

var numbers = []string{
	"0", "-0", "1", "-1", "42", "2.5", "-0.5", "1e300", "12345678901234567890",
	"2147483647", "2147483648", "-2147483648", "-2147483649",
	"9007199254740991", "-9007199254740991", "9007199254740992", "9007199254740993",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"2.0", "1e2", "1E3", "0.0", "-3.0e0", "4.2e1",
}

var intOrStrings = []string{`"50%"`, `"x"`, `""`, `"5"`, `5`, `0`, `-7`, `2.5`, `2.0`, `1e1`, `true`, `{}`, `[]`, `[5]`, `2147483647`, `2147483648`, `-2147483649`}

// timestamp is a valid, odd-but-valid or invalid RFC 3339 timestamp as Go's time.Parse sees it.
func (m *mutator) timestamp() string {
	if m.r.chance(0.3) {
		t := []byte("2026-03-14T15:09:26Z")
		i := m.r.Intn(len(t))
		t[i] = pick(m.r, []byte("0123456789-:TZtz .,+x")...)
		return string(t)
	}
	return pick(m.r,
		"2026-03-14T15:09:26Z", "2026-03-14T5:09:26Z", "2026-03-14T15:09:26,5Z", "2026-03-14T15:09:26.123456789123Z",
		"2026-03-14T15:09:26+24:00", "2026-03-14T15:09:26+23:60", "2026-03-14T15:09:26-01:30", "0000-01-01T00:00:00Z",
		"2024-02-29T00:00:00Z", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-01T24:00:00Z",
		"2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-03-14t15:09:26Z", "2026-03-14T15:09:26z", "2026-03-14 15:09:26Z",
		"2026-03-14T15:09:26", "2026-03-14T15:09:26Zjunk", "2026-03-14T15:09:26+0100", "2026-03-14T15:09:26+25:00",
		"yesterday at noon", "", "1710428966", "2026-03-14", "2026-03-14T15:09:26.Z", "2026-3-14T15:09:26Z",
	)
}

// crdString is a string Cluster API's CRDs would refuse (patterns, lengths) or just an unusual one.
func (m *mutator) crdString() string {
	return pick(m.r, "Not_A_DNS_Name!", "", strings.Repeat("a", 300), strings.Repeat("long-", 20000), "UPPER", "-leading",
		"with space", "ünïcödé", "tab\there", "emoji 🙂", "quote\"back\\slash", "<html>&amp;", "\u2028line", "v1.33.0-rc.0+build")
}

// numberDifference says whether a number literal where Go wants an integer of the kind is a listed difference.
func numberDifference(literal, kind string) string {
	if strings.HasPrefix(literal, "\"") {
		return ""
	}
	var f float64
	if err := json.Unmarshal([]byte(literal), &f); err != nil {
		return ""
	}
	var i int64
	exact := json.Unmarshal([]byte(literal), &i) == nil
	if strings.ContainsAny(literal, ".eE") {
		// An integer in range, written with a fraction or an exponent.
		if f == math.Trunc(f) && (kind == kindInt32 && f >= math.MinInt32 && f <= math.MaxInt32 || kind == kindInt64 && f > -twoTo63 && f < twoTo63) {
			return IntegralLiteral
		}
		return ""
	}
	// An int64 JavaScript cannot hold exactly: in range, or at ±2^63 where the double cannot tell which side it is.
	if kind == kindInt64 && math.Abs(f) >= 1<<53 && (exact || math.Abs(f) == twoTo63) {
		return Int64BeyondJS
	}
	return ""
}

const twoTo63 = float64(1 << 63)
