package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	"sigs.k8s.io/cluster-api/exp/runtime/server"

	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/samples"
)

// TestRandomHandlersRegister: every handler gets a function the server SDK accepts for its hook.
func TestRandomHandlersRegister(t *testing.T) {
	r, err := newResponder(1, "")
	if err != nil {
		t.Fatal(err)
	}
	funcs, err := randomHandlerFuncs(r)
	if err != nil {
		t.Fatal(err)
	}
	catalog := runtimecatalog.New()
	if err := runtimehooksv1.AddToCatalog(catalog); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Options{Catalog: catalog, Host: "127.0.0.1", Port: 1, CertDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range samples.Handlers() {
		hook, _ := samples.Lookup(h.Hook)
		if err := srv.AddExtensionHandler(server.ExtensionHandler{Hook: hook.Func, Name: h.Name, HandlerFunc: funcs[h.Name]}); err != nil {
			t.Errorf("%s: %v", h.Name, err)
		}
	}
}

// TestAnswersLog: each call of a handler gets the next random response, and the log holds the JSON sent and what
// Cluster API's client decodes from it.
func TestAnswersLog(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "answers.jsonl")
	r, err := newResponder(42, logFile)
	if err != nil {
		t.Fatal(err)
	}
	funcs, _ := randomHandlerFuncs(r)
	gp := funcs["generate-patches"].(func(context.Context, *runtimehooksv1.GeneratePatchesRequest, *runtimehooksv1.GeneratePatchesResponse))
	dv := funcs["discover-variables"].(func(context.Context, *runtimehooksv1.DiscoverVariablesRequest, *runtimehooksv1.DiscoverVariablesResponse))
	var sent []any
	for i := 0; i < 3; i++ {
		resp := &runtimehooksv1.GeneratePatchesResponse{}
		gp(context.Background(), &runtimehooksv1.GeneratePatchesRequest{}, resp)
		sent = append(sent, resp)
	}
	vars := &runtimehooksv1.DiscoverVariablesResponse{}
	dv(context.Background(), &runtimehooksv1.DiscoverVariablesRequest{}, vars)
	sent = append(sent, vars)

	f, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []answerLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l answerLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	want := []struct {
		hook, handler string
		call          int
	}{{"GeneratePatches", "generate-patches", 0}, {"GeneratePatches", "generate-patches", 1}, {"GeneratePatches", "generate-patches", 2}, {"DiscoverVariables", "discover-variables", 0}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines", len(lines))
	}
	for i, w := range want {
		l := lines[i]
		if l.Hook != w.hook || l.Handler != w.handler || l.Call != w.call {
			t.Errorf("line %d: %s %s %d", i, l.Hook, l.Handler, l.Call)
		}
		raw, _ := json.Marshal(sent[i])
		if string(l.Response) != string(raw) {
			t.Errorf("line %d: response is not what was sent", i)
		}
		expected, _ := randomized.RandomResponse(w.hook, 42, w.handler, w.call)
		if !reflect.DeepEqual(expected, sent[i]) {
			t.Errorf("line %d: not randomized.RandomResponse(%s, 42, %s, %d)", i, w.hook, w.handler, w.call)
		}
		var a, b any
		_ = json.Unmarshal(l.Decoded, &a)
		_ = json.Unmarshal(l.Response, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("line %d: decoded differs from the response", i)
		}
	}
}
