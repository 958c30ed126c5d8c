package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"runtime-sdk.invalid/capi-interop/internal/jsonlines"
)

const (
	discoveryPath = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery"
	bccPath       = "/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/before-cluster-create"
	oneHandler    = `{"status":"Success","handlers":[{"name":"before-cluster-create","requestHook":{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","hook":"BeforeClusterCreate"}}]}`
)

type seen struct {
	method, path, query, contentType string
	body                             map[string]any
}

// peer starts a TLS server answering discovery with `discovery` and the handler with `answer` (status code, body).
func peer(t *testing.T, discovery string, code int, answer string) (string, string, *[]seen) {
	t.Helper()
	var mu sync.Mutex
	var requests []seen
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		mu.Lock()
		requests = append(requests, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), body})
		mu.Unlock()
		switch r.URL.Path {
		case "/base" + discoveryPath:
			_, _ = io.WriteString(w, discovery)
		case "/base" + bccPath:
			if code == http.StatusTemporaryRedirect {
				http.Redirect(w, r, "/base"+discoveryPath, code)
				return
			}
			w.WriteHeader(code)
			_, _ = io.WriteString(w, answer)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	// A trailing slash on the base path is cleaned by path.Join, as in CAPI.
	return srv.URL + "/base/", caFile, &requests
}

func runCaller(t *testing.T, args ...string) (int, []Call, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, jsonlines.Decode[Call](t, stdout.String()), stderr.String()
}

func TestCallerDecodesValidResponse(t *testing.T) {
	url, ca, requests := peer(t, oneHandler, 200, `{"status":"Success","message":"ok","retryAfterSeconds":7}`)
	code, calls, stderr := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 0 || len(calls) != 2 {
		t.Fatalf("code %d, calls %+v, stderr %s", code, calls, stderr)
	}
	if calls[1].Hook != "BeforeClusterCreate" || calls[1].Handler != "before-cluster-create" || calls[1].HTTPStatus != 200 ||
		calls[1].Status != "Success" || calls[1].Message != "ok" || calls[1].RetryAfterSeconds != 7 || calls[1].TimeoutSeconds != 10 || calls[1].FailurePolicy != "Fail" {
		t.Fatalf("unexpected call %+v", calls[1])
	}
	// Wire behaviour of CAPI's client: POST, no Content-Type, ?timeout=10s, kind/apiVersion set.
	for _, r := range *requests {
		if r.method != http.MethodPost || r.contentType != "" || r.query != "timeout=10s" {
			t.Errorf("unexpected request %+v", r)
		}
		if r.body["apiVersion"] != "hooks.runtime.cluster.x-k8s.io/v1alpha1" || !strings.HasSuffix(r.body["kind"].(string), "Request") {
			t.Errorf("request without TypeMeta: %+v", r.body)
		}
	}
	if (*requests)[0].path != "/base"+discoveryPath || (*requests)[1].path != "/base"+bccPath {
		t.Errorf("unexpected paths %+v", *requests)
	}
}

// TestCallerRejectsUnknownResponseField proves the strict decode can fail: CAPI's Go types have no "bogus" field.
func TestCallerRejectsUnknownResponseField(t *testing.T) {
	url, ca, _ := peer(t, oneHandler, 200, `{"status":"Success","retryAfterSeconds":0,"bogus":true}`)
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || len(calls) != 2 {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
	if !strings.Contains(calls[1].Error, `failed to decode response: json: unknown field "bogus"`) {
		t.Fatalf("unexpected error %q", calls[1].Error)
	}
}

func TestCallerRejectsMisspelledResponseField(t *testing.T) {
	url, ca, _ := peer(t, oneHandler, 200, `{"status":"Success","retryAfterSecond":30}`)
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || !strings.Contains(calls[1].Error, `unknown field "retryAfterSecond"`) {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
}

func TestCallerRejectsWrongType(t *testing.T) {
	url, ca, _ := peer(t, oneHandler, 200, `{"status":"Success","retryAfterSeconds":"30"}`)
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || !strings.Contains(calls[1].Error, "cannot unmarshal string") {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
}

func TestCallerReportsFailureStatusWithoutError(t *testing.T) {
	url, ca, _ := peer(t, oneHandler, 200, `{"status":"Failure","message":"boom","retryAfterSeconds":0}`)
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 0 || calls[1].Status != "Failure" || calls[1].Message != "boom" || calls[1].Error != "" {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
}

func TestCallerRejectsUnknownStatus(t *testing.T) {
	url, ca, _ := peer(t, oneHandler, 200, `{"status":"","retryAfterSeconds":0}`)
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || !strings.Contains(calls[1].Error, `got unknown response status ""`) {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
}

func TestCallerDoesNotFollowRedirects(t *testing.T) {
	url, ca, requests := peer(t, oneHandler, http.StatusTemporaryRedirect, "")
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || calls[1].HTTPStatus != 307 || !strings.Contains(calls[1].Error, "got response with status code 307 != 200") {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
	if len(*requests) != 2 {
		t.Fatalf("redirect was followed: %+v", *requests)
	}
}

func TestCallerReportsNon200(t *testing.T) {
	url, ca, _ := peer(t, oneHandler, 500, "unable to marshal response")
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	want := `http call failed: got response with status code 500 != 200: response : "unable to marshal response"`
	if code != 1 || calls[1].Error != want {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
}

func TestCallerValidatesDiscovery(t *testing.T) {
	discovery := `{"status":"Success","handlers":[
		{"name":"Bad_Name","requestHook":{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","hook":"BeforeClusterCreate"}},
		{"name":"dup","requestHook":{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","hook":"BeforeClusterCreate"},"timeoutSeconds":31},
		{"name":"dup","requestHook":{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","hook":"NoSuchHook"},"failurePolicy":"Sometimes"}]}`
	url, ca, requests := peer(t, discovery, 200, "")
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || len(calls) != 1 || len(*requests) != 1 {
		t.Fatalf("code %d, calls %+v, requests %d", code, calls, len(*requests))
	}
	for _, want := range []string{
		"failed to validate discovery response: [",
		"handler name Bad_Name is not valid",
		"handler dup timeoutSeconds 31 must be between 0 and 30",
		"duplicate name for handler dup found",
		`handler dup failurePolicy Sometimes must equal "Ignore" or "Fail"`,
		"handler dup requestHook hooks.runtime.cluster.x-k8s.io/v1alpha1/NoSuchHook is not in the Runtime SDK catalog",
	} {
		if !strings.Contains(calls[0].Error, want) {
			t.Errorf("discovery error %q does not contain %q", calls[0].Error, want)
		}
	}
}

func TestCallerRejectsUnknownDiscoveryField(t *testing.T) {
	url, ca, _ := peer(t, `{"status":"Success","handlers":[{"name":"x","requestHook":{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","hook":"BeforeClusterCreate"},"timeout":5}]}`, 200, "")
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca)
	if code != 1 || !strings.Contains(calls[0].Error, `unknown field "timeout"`) {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
}

func TestCallerSendsFixtureBytes(t *testing.T) {
	dir := t.TempDir()
	raw := `{"kind":"BeforeClusterCreateRequest","apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","cluster":{"metadata":{"name":"from-fixture"}}}`
	if err := os.WriteFile(filepath.Join(dir, "beforeclustercreate.request.json"), []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "discovery.request.json"), []byte(`{"kind":"DiscoveryRequest","apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	url, ca, requests := peer(t, oneHandler, 200, `{"status":"Success","retryAfterSeconds":0}`)
	code, calls, _ := runCaller(t, "--url", url, "--ca-file", ca, "--fixtures-dir", dir, "--hooks", "BeforeClusterCreate")
	if code != 0 || len(calls) != 2 {
		t.Fatalf("code %d, calls %+v", code, calls)
	}
	if name := (*requests)[1].body["cluster"].(map[string]any)["metadata"].(map[string]any)["name"]; name != "from-fixture" {
		t.Fatalf("fixture bytes were not sent: %v", (*requests)[1].body)
	}
}

func TestCallerUsage(t *testing.T) {
	if code, _, _ := runCaller(t); code != 2 {
		t.Fatalf("missing flags: exit %d", code)
	}
	if code, _, _ := runCaller(t, "--url", "http://127.0.0.1:1", "--ca-file", "x"); code != 2 {
		t.Fatalf("http scheme: exit %d", code)
	}
	if code, _, _ := runCaller(t, "--url", "https://127.0.0.1:1", "--ca-file", "x", "--hooks", "Nope"); code != 2 {
		t.Fatalf("unknown hook: exit %d", code)
	}
}
