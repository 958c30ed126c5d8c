package parity

import (
	"bytes"
	"reflect"
	"testing"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// Every Go type the hooks' requests and responses reach is one whose decoding the corpus knows how to vary.
func TestKindsCoverTheHookTypes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var visit func(reflect.Type, string)
	visit = func(typ reflect.Type, path string) {
		typ = deref(typ)
		if seen[typ] {
			return
		}
		seen[typ] = true
		switch kindOf(typ) {
		case "":
			t.Errorf("%s: no kind for Go type %s", path, typ)
		case kindStruct:
			for _, f := range fieldsOf(typ) {
				visit(f.typ, path+"."+f.name)
			}
		case kindList, kindMap:
			visit(typ.Elem(), path+"[]")
		}
	}
	for _, h := range samples.Hooks() {
		visit(reflect.TypeOf(h.NewRequest()), h.Name+"Request")
		visit(reflect.TypeOf(h.NewResponse()), h.Name+"Response")
	}
}

// The corpus is reproducible, parses as JSON Go reads syntactically, and uses every mutation.
func TestCorpus(t *testing.T) {
	a, err := Corpus("BeforeClusterUpgrade", 7, 400)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Corpus("BeforeClusterUpgrade", 7, 400)
	mutations := map[string]int{}
	differences := map[string]int{}
	for i := range a {
		if !bytes.Equal(a[i].Body, b[i].Body) || a[i].Name != b[i].Name {
			t.Fatalf("case %d differs between two runs", i)
		}
		mutations[a[i].Mutation]++
		if a[i].Difference != "" {
			differences[a[i].Difference]++
		}
	}
	t.Logf("mutations %v, differences %v", mutations, differences)
	for _, m := range []string{"valid", "null", "wrong-type", "number", "timestamp", "crd-string", "deep", "huge-list", "unknown-field", "case-variant-key", "duplicate-key", "int-or-string"} {
		if mutations[m] == 0 {
			t.Errorf("no %q case in %v", m, mutations)
		}
	}
	for _, d := range []string{CaseVariantKey, DuplicateKey, IntegralLiteral} {
		if differences[d] == 0 {
			t.Errorf("no case of %q in %v", d, differences)
		}
	}
}

func TestNumberDifference(t *testing.T) {
	for _, c := range []struct{ literal, kind, want string }{
		{"2.0", kindInt32, IntegralLiteral}, {"1e2", kindInt64, IntegralLiteral}, {"2.5", kindInt32, ""}, {"1e300", kindInt64, ""},
		{"2147483648", kindInt32, ""}, {"9007199254740992", kindInt64, Int64BeyondJS}, {"9223372036854775807", kindInt64, Int64BeyondJS},
		{"-9223372036854775809", kindInt64, Int64BeyondJS}, {"12345678901234567890", kindInt64, ""}, {"9007199254740991", kindInt64, ""},
		{`"5"`, kindInt32, ""}, {"-0", kindInt32, ""},
	} {
		if got := numberDifference(c.literal, c.kind); got != c.want {
			t.Errorf("numberDifference(%s, %s) = %q, want %q", c.literal, c.kind, got, c.want)
		}
	}
}
