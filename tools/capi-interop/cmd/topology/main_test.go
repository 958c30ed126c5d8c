package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/serializer"

	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/jsonlines"
	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/walk"
)

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// WalkTemplates' patch is the difference between a template as sent and the typed object marshalled again: for
// the comparison to be about the mutations only, a known template must come back unchanged from decode + marshal.
func TestKnownTemplatesRoundTrip(t *testing.T) {
	decoder := serializer.NewCodecFactory(randomized.TopologyScheme()).UniversalDeserializer()
	known := 0
	for i := 0; i < 100; i++ {
		req, err := randomized.TopologyRequest(1, randomized.TopologyCaseName(i))
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range req.Items {
			obj, _, err := decoder.Decode(item.Object.Raw, nil, nil)
			if err != nil {
				continue // a kind the scheme does not know: WalkTemplates skips it
			}
			known++
			again, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(decodeJSON(t, again), decodeJSON(t, item.Object.Raw)) {
				t.Fatalf("%s: %T changes in a round trip:\n%s\n%s", req.Items[0].UID, obj, item.Object.Raw, again)
			}
		}
	}
	if known < 200 {
		t.Errorf("only %d known templates in 100 requests", known)
	}
}

// Go's two formats agree with each other once applied, and the mutations change something most of the time.
func TestGoFormatsAgree(t *testing.T) {
	changed := 0
	for i := 0; i < 50; i++ {
		c, err := generate(1, randomized.TopologyCaseName(i))
		if err != nil {
			t.Fatal(err)
		}
		patch, merge := c.Responses[runtimehooksv1.JSONPatchType], c.Responses[runtimehooksv1.JSONMergePatchType]
		if patch.Status != merge.Status {
			t.Fatalf("%s: statuses %s and %s", c.Name, patch.Status, merge.Status)
		}
		if patch.Status != runtimehooksv1.ResponseStatusSuccess {
			continue
		}
		a, err := walk.Apply(c.Request, patch)
		if err != nil {
			t.Fatal(err)
		}
		b, err := walk.Apply(c.Request, merge)
		if err != nil {
			t.Fatal(err)
		}
		for j := range a {
			if !reflect.DeepEqual(decodeJSON(t, a[j]), decodeJSON(t, b[j])) {
				t.Fatalf("%s item %d: JSON Patch gives %s, merge patch %s", c.Name, j, a[j], b[j])
			}
			if !bytes.Equal(a[j], c.Request.Items[j].Object.Raw) {
				changed++
			}
		}
	}
	if changed < 25 {
		t.Errorf("only %d templates changed", changed)
	}
}

func TestGenerateAndApply(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"generate", "--seed", "7", "--count", "5"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	cases := jsonlines.Decode[Case](t, out.String())
	if len(cases) != 5 || len(cases[0].Lookups) == 0 {
		t.Fatalf("%d cases", len(cases))
	}
	// Requests and lookups depend on the seed only (the order of Go's patch operations follows map iteration).
	var again bytes.Buffer
	run([]string{"generate", "--seed", "7", "--count", "5"}, nil, &again, &errOut)
	for i, c := range jsonlines.Decode[Case](t, again.String()) {
		if !reflect.DeepEqual(c.Request, cases[i].Request) || !reflect.DeepEqual(c.Lookups, cases[i].Lookups) {
			t.Errorf("%s: the same seed generates another request or other lookups", c.Name)
		}
	}
	var in bytes.Buffer
	for _, c := range cases {
		line, _ := json.Marshal(applyLine{Request: c.Request, Response: c.Responses[runtimehooksv1.JSONPatchType]})
		in.Write(append(line, '\n'))
	}
	in.WriteString("{\"request\": 1}\n")
	var applyOut bytes.Buffer
	if code := run([]string{"apply"}, &in, &applyOut, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	results := jsonlines.Decode[applied](t, applyOut.String())
	if len(results) != 6 || results[5].Error == "" || !strings.Contains(results[5].Error, "cannot unmarshal") {
		t.Fatalf("apply answered %d lines, last %+v", len(results), results[len(results)-1])
	}
	if code := run([]string{"bogus"}, nil, &out, &errOut); code != 2 {
		t.Errorf("usage error: exit %d", code)
	}
}
