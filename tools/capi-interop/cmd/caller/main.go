// Command caller is the calling side of the Cluster API Runtime SDK, imitating the wire behaviour of CAPI's
// runtime client (internal/runtime/client/client.go, Discover + httpCall):
//
//	caller --url <base url> --ca-file <pem> [--client-cert f --client-key f] [--hooks Hook1,Hook2]
//	       [--timeout 10s] [--fixtures-dir dir]
//
// It POSTs a DiscoveryRequest, strictly decodes the DiscoveryResponse, validates the handlers like CAPI's
// Discover (unique DNS-1123 names, timeoutSeconds 0..30, failurePolicy Fail|Ignore, hook in the catalog), then
// POSTs the sample request of every discovered handler's hook (internal/samples, or the raw bytes of
// <fixtures-dir>/<hook>.request.json) and strictly decodes the answer into CAPI's Go response type.
//
// Wire details copied from CAPI: POST, no Content-Type/Accept headers, `?timeout=<Go duration>` with the handler's
// timeoutSeconds (defaulted to 10 when absent or 0), path.Join of the base URL path and
// /<group>/<version>/<lowercase hook>/<lowercase handler>, redirects are not followed, HTTP status must be 200,
// TLS verified against --ca-file with ServerName = URL host. Stricter than CAPI: unknown fields in responses
// are errors (DisallowUnknownFields) and 200 bodies are also capped at 20 MiB.
//
// Output: one JSON line per call on stdout:
//
//	{"hook":..,"handler":..,"httpStatus":..,"status":..,"message":..,"retryAfterSeconds":..,"timeoutSeconds":..,
//	 "failurePolicy":..,"handlers":[..] (Discovery only),"error":".." (only on error)}
//
// Exit code 1 if any call failed (transport error or timeout, non-200, decode error, discovery failure/invalid,
// unknown response status); a `Failure` status of a handler is reported, not an error. Exit code 2 on usage errors.
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
	"k8s.io/apimachinery/pkg/runtime/schema"
	kerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation"

	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/samples"
	"runtime-sdk.invalid/capi-interop/internal/wire"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// DiscoveredHandler is a handler of the Discovery answer after CAPI's defaulting.
type DiscoveredHandler struct {
	Name           string `json:"name"`
	Hook           string `json:"hook"`
	APIVersion     string `json:"apiVersion"`
	TimeoutSeconds int32  `json:"timeoutSeconds"`
	FailurePolicy  string `json:"failurePolicy"`
}

// Call is one output line.
type Call struct {
	Hook              string              `json:"hook"`
	Handler           string              `json:"handler"`
	HTTPStatus        int                 `json:"httpStatus"`
	Status            string              `json:"status"`
	Message           string              `json:"message"`
	RetryAfterSeconds int32               `json:"retryAfterSeconds"`
	TimeoutSeconds    int32               `json:"timeoutSeconds"`
	FailurePolicy     string              `json:"failurePolicy,omitempty"`
	Handlers          []DiscoveredHandler `json:"handlers,omitempty"`
	Error             string              `json:"error,omitempty"`
}

type caller struct {
	client         *wire.Client
	defaultTimeout time.Duration
	fixturesDir    string
	catalog        *runtimecatalog.Catalog
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("caller", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("url", "", "base URL of the Runtime Extension (https)")
	caFile := fs.String("ca-file", "", "PEM CA bundle to verify the extension's serving certificate")
	clientCert := fs.String("client-cert", "", "PEM client certificate (mTLS)")
	clientKey := fs.String("client-key", "", "PEM client key (mTLS)")
	hooks := fs.String("hooks", "", "comma-separated hooks to call after Discovery (default: every discovered handler)")
	timeout := fs.Duration("timeout", 10*time.Second, "timeout of the Discovery call and of handlers declaring no (or 0) timeoutSeconds")
	fixturesDir := fs.String("fixtures-dir", "", "send the raw bytes of <dir>/<hook lowercased>.request.json instead of marshalling the samples")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "caller: "+format+"\n", a...)
		return 2
	}
	if *baseURL == "" || *caFile == "" {
		return usage("--url and --ca-file are required")
	}
	if (*clientCert == "") != (*clientKey == "") {
		return usage("--client-cert and --client-key must be set together")
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
	c, err := newCaller(*baseURL, *caFile, *clientCert, *clientKey)
	if err != nil {
		return usage("%v", err)
	}
	c.defaultTimeout = *timeout
	c.fixturesDir = *fixturesDir

	failed := false
	emit := func(call Call) {
		if call.Error != "" {
			failed = true
		}
		b, _ := json.Marshal(call)
		fmt.Fprintln(stdout, string(b))
	}

	handlers, discoveryCall := c.discover(ctx)
	emit(discoveryCall)
	for _, h := range handlers {
		if len(wanted) > 0 && !wanted[h.Hook] {
			continue
		}
		emit(c.callHandler(ctx, h))
	}
	if failed {
		return 1
	}
	return 0
}

func newCaller(baseURL, caFile, clientCert, clientKey string) (*caller, error) {
	client, err := wire.New(baseURL, caFile, clientCert, clientKey)
	if err != nil {
		return nil, err
	}
	catalog := runtimecatalog.New()
	if err := runtimehooksv1.AddToCatalog(catalog); err != nil {
		return nil, err
	}
	return &caller{client: client, catalog: catalog}, nil
}

// requestBody returns the bytes to POST for a hook: the fixture file or the marshalled sample (kind/apiVersion set).
func (c *caller) requestBody(hook samples.Hook) ([]byte, error) {
	if c.fixturesDir != "" {
		return os.ReadFile(filepath.Join(c.fixturesDir, hook.FileName("request")))
	}
	req := hook.Request()
	gvk, err := c.catalog.Request(hook.GVH())
	if err != nil {
		return nil, err
	}
	req.GetObjectKind().SetGroupVersionKind(gvk)
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("http call failed: failed to marshall request object: %w", err)
	}
	return b, nil
}

// httpCall is CAPI's httpCall, decoding strictly: an unknown field in an answer is an interop failure.
func (c *caller) httpCall(ctx context.Context, hook samples.Hook, handler string, body []byte, timeout time.Duration, response runtime.Object) (int, error) {
	return c.client.Post(ctx, hook.Path(handler), body, timeout, response, true)
}

func describe(call *Call, response runtime.Object) {
	if r, ok := response.(runtimehooksv1.ResponseObject); ok {
		call.Status = string(r.GetStatus())
		call.Message = r.GetMessage()
	}
	if r, ok := response.(runtimehooksv1.RetryResponseObject); ok {
		call.RetryAfterSeconds = r.GetRetryAfterSeconds()
	}
}

func seconds(d time.Duration) int32 { return int32(d / time.Second) }

// discover calls Discovery and returns the defaulted, validated handlers in catalog-then-name order.
func (c *caller) discover(ctx context.Context) ([]DiscoveredHandler, Call) {
	hook, _ := samples.Lookup("Discovery")
	call := Call{Hook: hook.Name, TimeoutSeconds: seconds(c.defaultTimeout)}
	body, err := c.requestBody(hook)
	if err != nil {
		call.Error = err.Error()
		return nil, call
	}
	response := &runtimehooksv1.DiscoveryResponse{}
	call.HTTPStatus, err = c.httpCall(ctx, hook, "", body, c.defaultTimeout, response)
	describe(&call, response)
	if err != nil {
		call.Error = err.Error()
		return nil, call
	}
	switch response.Status {
	case runtimehooksv1.ResponseStatusSuccess:
	case runtimehooksv1.ResponseStatusFailure:
		call.Error = "got failure response with message: " + response.Message
		return nil, call
	default:
		call.Error = fmt.Sprintf("got unknown response status %q with message: %s", response.Status, response.Message)
		return nil, call
	}
	handlers, err := defaultAndValidate(c.catalog, response)
	call.Handlers = handlers
	if err != nil {
		call.Error = err.Error()
		return nil, call
	}
	order := map[string]int{}
	for i, h := range samples.Hooks() {
		order[h.Name] = i
	}
	sorted := append([]DiscoveredHandler(nil), handlers...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if order[sorted[i].Hook] != order[sorted[j].Hook] {
			return order[sorted[i].Hook] < order[sorted[j].Hook]
		}
		return sorted[i].Name < sorted[j].Name
	})
	return sorted, call
}

// defaultAndValidate mirrors CAPI's defaultAndValidateDiscoveryResponse.
func defaultAndValidate(catalog *runtimecatalog.Catalog, discovery *runtimehooksv1.DiscoveryResponse) ([]DiscoveredHandler, error) {
	var errs []error
	var out []DiscoveredHandler
	names := map[string]bool{}
	for _, h := range discovery.Handlers {
		d := DiscoveredHandler{
			Name: h.Name, Hook: h.RequestHook.Hook, APIVersion: h.RequestHook.APIVersion,
			TimeoutSeconds: runtimehooksv1.DefaultHandlersTimeoutSeconds, FailurePolicy: string(runtimehooksv1.FailurePolicyFail),
		}
		if h.TimeoutSeconds != nil {
			d.TimeoutSeconds = *h.TimeoutSeconds
		}
		if h.FailurePolicy != nil {
			d.FailurePolicy = string(*h.FailurePolicy)
		}
		out = append(out, d)

		if names[d.Name] {
			errs = append(errs, fmt.Errorf("duplicate name for handler %s found", d.Name))
		}
		names[d.Name] = true
		if msgs := validation.IsDNS1123Label(d.Name); len(msgs) > 0 {
			errs = append(errs, fmt.Errorf("handler name %s is not valid: %s", d.Name, msgs))
		}
		if d.TimeoutSeconds < 0 || d.TimeoutSeconds > 30 {
			errs = append(errs, fmt.Errorf("handler %s timeoutSeconds %d must be between 0 and 30", d.Name, d.TimeoutSeconds))
		}
		if d.FailurePolicy != string(runtimehooksv1.FailurePolicyFail) && d.FailurePolicy != string(runtimehooksv1.FailurePolicyIgnore) {
			errs = append(errs, fmt.Errorf("handler %s failurePolicy %s must equal \"Ignore\" or \"Fail\"", d.Name, d.FailurePolicy))
		}
		gv, err := schema.ParseGroupVersion(d.APIVersion)
		if err != nil {
			errs = append(errs, fmt.Errorf("handler %s requestHook APIVersion %s is not valid: %w", d.Name, d.APIVersion, err))
		} else if !catalog.IsHookRegistered(runtimecatalog.GroupVersionHook{Group: gv.Group, Version: gv.Version, Hook: d.Hook}) {
			errs = append(errs, fmt.Errorf("handler %s requestHook %s/%s is not in the Runtime SDK catalog", d.Name, d.APIVersion, d.Hook))
		}
	}
	if agg := kerrors.NewAggregate(errs); agg != nil {
		return out, fmt.Errorf("failed to validate discovery response: %w", agg)
	}
	return out, nil
}

// callHandler calls one discovered handler like CAPI's CallExtension (without registry/namespace logic).
func (c *caller) callHandler(ctx context.Context, h DiscoveredHandler) Call {
	call := Call{Hook: h.Hook, Handler: h.Name, FailurePolicy: h.FailurePolicy}
	hook, ok := samples.Lookup(h.Hook)
	if !ok {
		call.Error = "unknown hook " + h.Hook
		return call
	}
	timeout := time.Duration(h.TimeoutSeconds) * time.Second
	if timeout == 0 {
		timeout = c.defaultTimeout
	}
	call.TimeoutSeconds = seconds(timeout)
	body, err := c.requestBody(hook)
	if err != nil {
		call.Error = err.Error()
		return call
	}
	response := hook.NewResponse()
	call.HTTPStatus, err = c.httpCall(ctx, hook, h.Name, body, timeout, response)
	describe(&call, response)
	if err != nil {
		call.Error = err.Error()
		return call
	}
	switch runtimehooksv1.ResponseStatus(call.Status) {
	case runtimehooksv1.ResponseStatusSuccess, runtimehooksv1.ResponseStatusFailure:
	default:
		call.Error = fmt.Sprintf("got unknown response status %q with message: %s", call.Status, call.Message)
	}
	return call
}
