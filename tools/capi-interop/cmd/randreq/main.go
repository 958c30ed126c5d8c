// Command randreq sends requests filled at random from Cluster API's Go types (internal/randomized), plus large
// but valid ones, to every handler of a Runtime Extension, the way Cluster API's runtime client sends them:
//
//	randreq --seed N --per-hook K --url <base url> --ca-file <pem> [--client-cert f --client-key f]
//	        [--hooks Hook1,Hook2] [--timeout 10s] [--dump-dir dir] [--list]
//
// It discovers the extension (Discovery, answer decoded into CAPI's DiscoveryResponse), then, for each discovered
// handler (catalog order, then name), POSTs each generated request of the handler's hook (K random ones, then the
// hook's large cases) to <url>/hooks.runtime.cluster.x-k8s.io/v1alpha1/<lowercase hook>/<handler>?timeout=<d>
// with no Content-Type header, and decodes the answer with encoding/json into CAPI's Go response type (what
// Cluster API's client does). The Discovery hook's own generated requests are POSTed to the discovery path.
// Request bodies depend only on (seed, hook, case): `--dump-dir` writes them as <hook lowercased>.<case>.json.
//
// Output: one JSON line per call on stdout:
//
//	{"hook":..,"handler":..,"case":..,"bytes":..,"httpStatus":..,"status":..,"message":..,"error":".." (only on error)}
//
// `error` is set for transport errors, non-200 answers and answers that do not decode; `status`/`message` are the
// decoded answer's. The first line is the discovery call (case "discovery"). With --list nothing is sent: one line
// per generated case {"hook","case","bytes"}. Exit code 0 once every call was made, 1 if discovery failed, 2 on
// usage errors.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/samples"
	"runtime-sdk.invalid/capi-interop/internal/wire"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// Call is one output line.
type Call struct {
	Hook       string `json:"hook"`
	Handler    string `json:"handler"`
	Case       string `json:"case"`
	Bytes      int    `json:"bytes"`
	HTTPStatus int    `json:"httpStatus"`
	Status     string `json:"status"`
	Message    string `json:"message"`
	Error      string `json:"error,omitempty"`
}

type handler struct {
	name, hook string
	timeout    time.Duration
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("randreq", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Int64("seed", 1, "seed of the generated requests")
	perHook := fs.Int("per-hook", 15, "random requests per hook (the large cases come on top)")
	baseURL := fs.String("url", "", "base URL of the Runtime Extension (https)")
	caFile := fs.String("ca-file", "", "PEM CA bundle to verify the extension's serving certificate")
	clientCert := fs.String("client-cert", "", "PEM client certificate (mTLS)")
	clientKey := fs.String("client-key", "", "PEM client key (mTLS)")
	hooks := fs.String("hooks", "", "comma-separated hooks to call (default: every discovered handler)")
	timeout := fs.Duration("timeout", 10*time.Second, "timeout of Discovery and of handlers declaring no (or 0) timeoutSeconds")
	dumpDir := fs.String("dump-dir", "", "write every request body to <dir>/<hook lowercased>.<case>.json")
	list := fs.Bool("list", false, "only print the generated cases and their sizes; send nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "randreq: "+format+"\n", a...)
		return 2
	}
	if *perHook < 0 {
		return usage("--per-hook must not be negative")
	}
	wanted := map[string]bool{}
	if *hooks != "" {
		for _, h := range strings.Split(*hooks, ",") {
			h = strings.TrimSpace(h)
			if _, ok := samples.Lookup(h); !ok {
				return usage("unknown hook %q", h)
			}
			wanted[h] = true
		}
	}
	selected := func(hook string) bool { return len(wanted) == 0 || wanted[hook] }

	// Generated once per hook, in the same order for every handler of the hook.
	bodies := map[string][]namedBody{}
	casesOf := func(hook string) ([]namedBody, error) {
		if b, ok := bodies[hook]; ok {
			return b, nil
		}
		cases, err := randomized.Requests(hook, *seed, *perHook)
		if err != nil {
			return nil, err
		}
		var out []namedBody
		for _, c := range cases {
			body, err := randomized.Marshal(c.Request)
			if err != nil {
				return nil, fmt.Errorf("http call failed: failed to marshall request object: %w", err)
			}
			if *dumpDir != "" {
				if err := os.WriteFile(filepath.Join(*dumpDir, strings.ToLower(hook)+"."+c.Name+".json"), body, 0o644); err != nil {
					return nil, err
				}
			}
			out = append(out, namedBody{c.Name, body})
		}
		bodies[hook] = out
		return out, nil
	}
	if *dumpDir != "" {
		if err := os.MkdirAll(*dumpDir, 0o755); err != nil {
			return usage("%v", err)
		}
	}
	emit := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintln(stdout, string(b))
	}

	if *list {
		for _, h := range samples.Hooks() {
			if !selected(h.Name) {
				continue
			}
			cases, err := casesOf(h.Name)
			if err != nil {
				return usage("%v", err)
			}
			for _, c := range cases {
				emit(map[string]any{"hook": h.Name, "case": c.name, "bytes": len(c.body)})
			}
		}
		return 0
	}

	if *baseURL == "" || *caFile == "" {
		return usage("--url and --ca-file are required")
	}
	if (*clientCert == "") != (*clientKey == "") {
		return usage("--client-cert and --client-key must be set together")
	}
	wc, err := wire.New(*baseURL, *caFile, *clientCert, *clientKey)
	if err != nil {
		return usage("%v", err)
	}
	c := &client{wc}

	discovery, _ := samples.Lookup("Discovery")
	handlers, call := c.discover(ctx, discovery, *timeout)
	emit(call)
	if call.Error != "" {
		return 1
	}
	if selected("Discovery") {
		handlers = append([]handler{{name: "", hook: "Discovery", timeout: *timeout}}, handlers...)
	}
	for _, h := range handlers {
		if !selected(h.hook) {
			continue
		}
		hook, _ := samples.Lookup(h.hook)
		cases, err := casesOf(h.hook)
		if err != nil {
			emit(Call{Hook: h.hook, Handler: h.name, Error: err.Error()})
			continue
		}
		for _, cs := range cases {
			call := Call{Hook: h.hook, Handler: h.name, Case: cs.name, Bytes: len(cs.body)}
			response := hook.NewResponse()
			call.HTTPStatus, err = c.post(ctx, hook, h.name, cs.body, h.timeout, response)
			if r, ok := response.(runtimehooksv1.ResponseObject); ok {
				call.Status, call.Message = string(r.GetStatus()), r.GetMessage()
			}
			if err != nil {
				call.Error = err.Error()
			}
			emit(call)
		}
	}
	return 0
}

type namedBody struct {
	name string
	body []byte
}

type client struct{ *wire.Client }

// post is Cluster API's httpCall, decoding as Cluster API does (unknown fields ignored).
func (c *client) post(ctx context.Context, hook samples.Hook, handler string, body []byte, timeout time.Duration, response runtime.Object) (int, error) {
	return c.Post(ctx, hook.Path(handler), body, timeout, response, false)
}

// discover calls Discovery and returns the handlers (timeouts defaulted) in catalog-then-name order.
func (c *client) discover(ctx context.Context, hook samples.Hook, timeout time.Duration) ([]handler, Call) {
	call := Call{Hook: hook.Name, Case: "discovery"}
	body, err := randomized.Marshal(samples.DiscoveryRequest())
	if err != nil {
		call.Error = err.Error()
		return nil, call
	}
	call.Bytes = len(body)
	response := &runtimehooksv1.DiscoveryResponse{}
	call.HTTPStatus, err = c.post(ctx, hook, "", body, timeout, response)
	call.Status, call.Message = string(response.Status), response.Message
	if err != nil {
		call.Error = err.Error()
		return nil, call
	}
	if response.Status != runtimehooksv1.ResponseStatusSuccess {
		call.Error = fmt.Sprintf("discovery answered status %q with message: %s", response.Status, response.Message)
		return nil, call
	}
	order := map[string]int{}
	for i, h := range samples.Hooks() {
		order[h.Name] = i
	}
	var out []handler
	for _, h := range response.Handlers {
		if _, ok := samples.Lookup(h.RequestHook.Hook); !ok || h.RequestHook.APIVersion != samples.APIVersion {
			call.Error = fmt.Sprintf("handler %s: unsupported hook %s/%s", h.Name, h.RequestHook.APIVersion, h.RequestHook.Hook)
			return nil, call
		}
		t := timeout
		if h.TimeoutSeconds != nil && *h.TimeoutSeconds != 0 {
			t = time.Duration(*h.TimeoutSeconds) * time.Second
		}
		out = append(out, handler{name: h.Name, hook: h.RequestHook.Hook, timeout: t})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if order[out[i].hook] != order[out[j].hook] {
			return order[out[i].hook] < order[out[j].hook]
		}
		return out[i].name < out[j].name
	})
	return out, call
}
