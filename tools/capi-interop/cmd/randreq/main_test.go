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
	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/samples"
)

const api = "hooks.runtime.cluster.x-k8s.io/v1alpha1"

type received struct {
	path, query, contentType string
	body                     []byte
}

// peer starts a TLS extension with two handlers (BeforeClusterCreate "bcc" with timeoutSeconds 3, GeneratePatches
// "gp") answering `answer`.
func peer(t *testing.T, answer string) (string, string, func() []received) {
	t.Helper()
	var mu sync.Mutex
	var got []received
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), b})
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/discovery") {
			_, _ = io.WriteString(w, `{"status":"Success","handlers":[`+
				`{"name":"gp","requestHook":{"apiVersion":"`+api+`","hook":"GeneratePatches"}},`+
				`{"name":"bcc","requestHook":{"apiVersion":"`+api+`","hook":"BeforeClusterCreate"},"timeoutSeconds":3}]}`)
			return
		}
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv.URL, caFile, func() []received {
		mu.Lock()
		defer mu.Unlock()
		return append([]received(nil), got...)
	}
}

func runRandreq(t *testing.T, args ...string) (int, []Call, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, jsonlines.Decode[Call](t, stdout.String()), stderr.String()
}

func TestSendsEveryCaseToEveryHandlerLikeCAPI(t *testing.T) {
	url, caFile, got := peer(t, `{"status":"Success","message":"ok","retryAfterSeconds":0}`)
	dump := t.TempDir()
	code, calls, stderr := runRandreq(t, "--seed", "3", "--per-hook", "2", "--url", url, "--ca-file", caFile, "--hooks", "BeforeClusterCreate,GeneratePatches", "--dump-dir", dump)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	bcc, gp := 2+len(randomized.LargeCases("BeforeClusterCreate")), 2+len(randomized.LargeCases("GeneratePatches"))
	if len(calls) != 1+bcc+gp {
		t.Fatalf("%d calls, want %d", len(calls), 1+bcc+gp)
	}
	if calls[0].Hook != "Discovery" || calls[0].Case != "discovery" || calls[0].Status != "Success" {
		t.Errorf("first call %+v", calls[0])
	}
	// Catalog order: BeforeClusterCreate before GeneratePatches.
	if calls[1].Hook != "BeforeClusterCreate" || calls[1].Handler != "bcc" || calls[1].Case != "random-000" || calls[len(calls)-1].Hook != "GeneratePatches" {
		t.Errorf("order: %+v ... %+v", calls[1], calls[len(calls)-1])
	}
	requests := got()
	for i, c := range calls {
		if c.HTTPStatus != 200 || c.Error != "" || (i > 0 && c.Message != "ok") {
			t.Errorf("call %d: %+v", i, c)
		}
		r := requests[i]
		if r.contentType != "" {
			t.Errorf("call %d sent Content-Type %q", i, r.contentType)
		}
		if len(r.body) != c.Bytes {
			t.Errorf("call %d: %d bytes sent, %d reported", i, len(r.body), c.Bytes)
		}
		if i == 0 {
			continue
		}
		h, _ := samples.Lookup(c.Hook)
		if want := "/" + api + "/" + strings.ToLower(c.Hook) + "/" + c.Handler; r.path != want {
			t.Errorf("call %d: path %s, want %s", i, r.path, want)
		}
		wantTimeout := "timeout=10s"
		if c.Handler == "bcc" {
			wantTimeout = "timeout=3s"
		}
		if r.query != wantTimeout {
			t.Errorf("call %d: query %q, want %q", i, r.query, wantTimeout)
		}
		// The body is the generated case, reproducible from the seed, and decodes strictly into the hook's type.
		req, err := randomized.Request(c.Hook, 3, c.Case)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := randomized.Marshal(req)
		if !bytes.Equal(r.body, want) {
			t.Errorf("call %d (%s/%s): body is not the generated case", i, c.Hook, c.Case)
		}
		dec := json.NewDecoder(bytes.NewReader(r.body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(h.NewRequest()); err != nil {
			t.Errorf("call %d: %v", i, err)
		}
		dumped, err := os.ReadFile(filepath.Join(dump, strings.ToLower(c.Hook)+"."+c.Case+".json"))
		if err != nil || !bytes.Equal(dumped, want) {
			t.Errorf("call %d: dump %v", i, err)
		}
	}
}

func TestReportsAnswersThatDoNotDecode(t *testing.T) {
	url, caFile, _ := peer(t, `{"status":7}`)
	code, calls, _ := runRandreq(t, "--seed", "1", "--per-hook", "1", "--url", url, "--ca-file", caFile, "--hooks", "GeneratePatches")
	if code != 0 || len(calls) != 2+len(randomized.LargeCases("GeneratePatches")) {
		t.Fatalf("exit %d, %d calls", code, len(calls))
	}
	if !strings.Contains(calls[1].Error, "failed to decode response: json: cannot unmarshal number") {
		t.Errorf("error %q", calls[1].Error)
	}
}

func TestListAndUsage(t *testing.T) {
	code, _, _ := runRandreq(t, "--per-hook", "1")
	if code != 2 {
		t.Errorf("missing --url: exit %d", code)
	}
	if code, _, _ := runRandreq(t, "--list", "--hooks", "NoSuchHook"); code != 2 {
		t.Errorf("unknown hook: exit %d", code)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--list", "--per-hook", "3"}, &stdout, &stderr); code != 0 {
		t.Fatalf("--list: exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	want := 0
	for _, h := range samples.Hooks() {
		want += 3 + len(randomized.LargeCases(h.Name))
	}
	if len(lines) != want {
		t.Errorf("--list printed %d cases, want %d", len(lines), want)
	}
}
