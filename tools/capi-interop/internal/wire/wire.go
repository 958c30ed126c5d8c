// Package wire is the calling side of Cluster API's runtime client on the wire (internal/runtime/client/client.go):
// the HTTP client of createHTTPClient and the POST of httpCall, shared by the caller and randreq commands.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"time"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/transport"
)

// MaxResponseBodyBytes mirrors CAPI's maxExtensionResponseBodyBytes.
const MaxResponseBodyBytes = 20 << 20

// Client calls one extension, given by its base URL.
type Client struct {
	Base *url.URL
	HTTP *http.Client
}

// New builds the client like CAPI's createHTTPClient: TLS from the CA file (and an optional client certificate),
// the server name pinned to the URL's host, apimachinery's transport defaults, redirects never followed.
func New(baseURL, caFile, clientCert, clientKey string) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("failed to parse --url: %w", err)
	}
	if u.Scheme != "https" {
		return nil, fmt.Errorf("expected https scheme, got %s", u.Scheme)
	}
	caData, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	tlsConfig, err := transport.TLSConfigFor(&transport.Config{TLS: transport.TLSConfig{
		CertFile: clientCert, KeyFile: clientKey, CAData: caData, ServerName: u.Hostname(),
	}})
	if err != nil {
		return nil, fmt.Errorf("failed to create tls config: %w", err)
	}
	return &Client{Base: u, HTTP: &http.Client{
		Transport:     utilnet.SetTransportDefaults(&http.Transport{TLSClientConfig: tlsConfig}),
		CheckRedirect: func(_ *http.Request, _ []*http.Request) error { return http.ErrUseLastResponse },
	}}, nil
}

// Post mirrors CAPI's httpCall: POST of body to the hook path without Content-Type, ?timeout=<Go duration> and a
// deadline when timeout is not 0, status must be 200, the body (at most 20 MiB) decoded into response. strict
// rejects unknown fields (what the interop tests check); CAPI itself ignores them. It returns the HTTP status
// (0 when none was received).
func (c *Client) Post(ctx context.Context, hookPath string, body []byte, timeout time.Duration, response any, strict bool) (int, error) {
	u := *c.Base
	u.Path = path.Join(u.Path, hookPath)
	if timeout != 0 {
		values := u.Query()
		values.Add("timeout", timeout.String())
		u.RawQuery = values.Encode()
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, errors.New("http request timeout expired"))
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("http call failed: failed to create http request: %w", err)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, fmt.Errorf("http call failed: %w", err)
	}
	defer resp.Body.Close()
	reader := http.MaxBytesReader(nil, resp.Body, MaxResponseBodyBytes)
	if resp.StatusCode != http.StatusOK {
		b, err := io.ReadAll(reader)
		if err != nil {
			return resp.StatusCode, fmt.Errorf("http call failed: got response with status code %d != 200: failed to read response body", resp.StatusCode)
		}
		s := string(b)
		if len(s) > 512 {
			s = s[:512] + "..."
		}
		return resp.StatusCode, fmt.Errorf("http call failed: got response with status code %d != 200: response : %q", resp.StatusCode, s)
	}
	dec := json.NewDecoder(reader)
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(response); err != nil {
		return resp.StatusCode, fmt.Errorf("http call failed: failed to decode response: %w", err)
	}
	return resp.StatusCode, nil
}
