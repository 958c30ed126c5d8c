// Command extension is a Cluster API Runtime Extension served with CAPI's own server SDK
// (sigs.k8s.io/cluster-api/exp/runtime/server), implementing every v1alpha1 hook with deterministic answers.
// It is the reference peer for interop tests of the TypeScript runtime client.
//
// Handlers (see internal/samples.Handlers): the CAPI test extension names (before-cluster-create, ...,
// generate-upgrade-plan) plus three extra BeforeClusterCreate handlers: blocking (retryAfterSeconds 30),
// failing (status Failure) and slow (sleeps --slow-delay; discovery declares timeoutSeconds 1, failurePolicy Ignore).
//
// On start it writes a fresh self-signed CA (ca.crt), a serving certificate (tls.crt/tls.key for 127.0.0.1, ::1
// and localhost) and a client certificate (client.crt/client.key) into --cert-dir, listens on 127.0.0.1:--port
// and prints exactly one JSON line to stdout: {"url":"https://127.0.0.1:<port>","caFile":"<cert-dir>/ca.crt"}.
// Logs go to stderr. --client-ca <pem> enables mTLS (it may be <cert-dir>/ca.crt: the file is read after the
// certificates were generated). SIGTERM/SIGINT stop it cleanly; --exit-after bounds its lifetime.
//
// --random-responses-seed N (N >= 0) makes every handler answer a random response of its hook's Go response type
// instead (internal/randomized.RandomResponse: seeded by N, the handler name and the handler's call count; valid
// enums, Failure without retryAfterSeconds, sometimes a 40,000 character message, 1,500 discovered variables, a
// 10,000 character schema description or a 100 step upgrade plan). --answers-log f appends one JSON line per
// answer to f: {"hook","handler","call","response":<JSON sent>,"decoded":<the JSON decoded into the Go type and
// marshalled again, i.e. what Cluster API's client hands back>} (see random.go).
//
// --echo makes every handler answer Success with the request it read, marshalled, as its message (see echo.go):
// what Cluster API's server SDK decodes from a request, for comparisons of decoders (cmd/parity).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/go-logr/logr/funcr"
	ctrl "sigs.k8s.io/controller-runtime"

	runtimecatalog "sigs.k8s.io/cluster-api/api/runtime/catalog"
	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"
	"sigs.k8s.io/cluster-api/exp/runtime/server"

	"runtime-sdk.invalid/capi-interop/internal/samples"
)

const host = "127.0.0.1"

func main() {
	port := flag.Int("port", 0, "port to listen on (0 = pick a free one)")
	certDir := flag.String("cert-dir", "", "directory for the generated ca.crt, tls.crt, tls.key, client.crt, client.key (default: a new temporary directory, removed on exit)")
	clientCA := flag.String("client-ca", "", "PEM CA bundle to verify client certificates with (enables mTLS); may be <cert-dir>/ca.crt")
	slowDelay := flag.Duration("slow-delay", 3*time.Second, "how long the `slow` BeforeClusterCreate handler sleeps")
	randomSeed := flag.Int64("random-responses-seed", -1, "when >= 0, every handler answers random responses seeded by this value")
	answersLog := flag.String("answers-log", "", "with --random-responses-seed: append every answer as a JSON line to this file")
	exitAfter := flag.Duration("exit-after", 0, "stop after this long (0: run until SIGTERM/SIGINT)")
	echo := flag.Bool("echo", false, "every handler answers Success with the request it read as its message")
	flag.Parse()
	if *answersLog != "" && *randomSeed < 0 {
		fmt.Fprintln(os.Stderr, "extension: --answers-log needs --random-responses-seed")
		os.Exit(2)
	}

	ctrl.SetLogger(funcr.New(func(prefix, args string) {
		fmt.Fprintln(os.Stderr, time.Now().Format(time.RFC3339Nano), prefix, args)
	}, funcr.Options{Verbosity: 1}))

	funcs := handlerFuncs(*slowDelay)
	if *echo {
		funcs = echoHandlerFuncs()
	}
	if *randomSeed >= 0 {
		responder, err := newResponder(*randomSeed, *answersLog)
		if err == nil {
			funcs, err = randomHandlerFuncs(responder)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "extension:", err)
			os.Exit(1)
		}
	}
	if err := run(*port, *certDir, *clientCA, funcs, *exitAfter); err != nil {
		fmt.Fprintln(os.Stderr, "extension:", err)
		os.Exit(1)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func run(port int, certDir, clientCA string, funcs map[string]runtimecatalog.Hook, exitAfter time.Duration) error {
	log := ctrl.Log.WithName("capi-interop")
	if certDir == "" {
		dir, err := os.MkdirTemp("", "capi-interop-certs-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		certDir = dir
	}
	certDir, err := filepath.Abs(certDir)
	if err != nil {
		return err
	}
	if err := writeCertificates(certDir); err != nil {
		return err
	}
	clientCAName := ""
	if clientCA != "" {
		// The server SDK reads the client CA from a file name inside CertDir.
		if err := copyFile(clientCA, filepath.Join(certDir, clientCAFile)); err != nil {
			return fmt.Errorf("reading --client-ca: %w", err)
		}
		clientCAName = clientCAFile
	}
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}

	catalog := runtimecatalog.New()
	if err := runtimehooksv1.AddToCatalog(catalog); err != nil {
		return err
	}
	srv, err := server.New(server.Options{
		Catalog:      catalog,
		Host:         host,
		Port:         port,
		CertDir:      certDir,
		ClientCAName: clientCAName,
	})
	if err != nil {
		return err
	}
	for _, h := range samples.Handlers() {
		hook, ok := samples.Lookup(h.Hook)
		if !ok {
			return fmt.Errorf("unknown hook %s", h.Hook)
		}
		fn, ok := funcs[h.Name]
		if !ok {
			return fmt.Errorf("no implementation for handler %s", h.Name)
		}
		if err := srv.AddExtensionHandler(server.ExtensionHandler{
			Hook:           hook.Func,
			Name:           h.Name,
			HandlerFunc:    fn,
			TimeoutSeconds: h.TimeoutSeconds,
			FailurePolicy:  h.FailurePolicy,
		}); err != nil {
			return fmt.Errorf("adding handler %s: %w", h.Name, err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if exitAfter > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, exitAfter)
		defer cancel()
	}
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()

	addr := net.JoinHostPort(host, strconv.Itoa(port))
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = conn.Close()
			break
		}
		select {
		case err := <-done:
			if err == nil {
				err = errors.New("server stopped before listening")
			}
			return err
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("server did not listen on %s within 30s", addr)
		}
	}

	line, err := json.Marshal(struct {
		URL    string `json:"url"`
		CAFile string `json:"caFile"`
	}{URL: "https://" + addr, CAFile: filepath.Join(certDir, caCertFile)})
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(os.Stdout, string(line)); err != nil {
		return err
	}
	log.Info("listening", "url", "https://"+addr, "certDir", certDir, "mTLS", clientCAName != "", "handlers", len(samples.Handlers()))

	err = <-done
	log.Info("stopped")
	return err
}
