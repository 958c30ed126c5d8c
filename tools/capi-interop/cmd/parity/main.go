// Command parity sends the same corpus of hook requests (internal/parity: valid requests filled from Cluster API's
// Go types, each mutated once) to Cluster API's own server SDK and to a server under test, both echoing the
// request their handlers read, and compares what they answer (see parity.Compare):
//
//	parity --go-url <url> --go-ca-file <pem> --url <url> --ca-file <pem> [--seed N] [--per-hook K] [--hooks A,B]
//	       [--concurrency 4] [--dump-dir dir]
//
// Both servers must answer every handler of every hook with status Success and the request their handler read as
// JSON in `message` (tools/capi-interop/cmd/extension --echo on Cluster API's side), and refuse what they cannot
// read with Cluster API's "error unmarshalling request: " (or "error reading request: ") Failure. Output, on stdout, one JSON line per case that
// disagrees or exercises a listed difference:
//
//	{"hook","case","mutation","path","difference","problem","detail","goRefused","oursRefused"}
//
// and one summary line per hook: {"summary":true,"hook","cases","accepted","refused","problems":{...},
// "differences":{name:{"cases","goRefused","oursRefused"}},"mutations":{name:{"accepted","refused"}}}.
// --dump-dir writes the body of every case with a problem there. Exit code 0 once every case was sent.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/parity"
	"runtime-sdk.invalid/capi-interop/internal/samples"
	"runtime-sdk.invalid/capi-interop/internal/wire"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// server is one of the two servers compared: its client and the handler of each hook.
type server struct {
	client   *wire.Client
	handlers map[string]string
}

type line struct {
	Hook        string `json:"hook"`
	Case        string `json:"case"`
	Mutation    string `json:"mutation"`
	Path        string `json:"path"`
	Difference  string `json:"difference,omitempty"`
	Problem     string `json:"problem,omitempty"`
	Detail      string `json:"detail,omitempty"`
	GoRefused   bool   `json:"goRefused"`
	OursRefused bool   `json:"oursRefused"`
}

type tally struct {
	Accepted int `json:"accepted"`
	Refused  int `json:"refused"`
}

type difference struct {
	Cases       int `json:"cases"`
	GoRefused   int `json:"goRefused"`
	OursRefused int `json:"oursRefused"`
}

type summary struct {
	Summary     bool                   `json:"summary"`
	Hook        string                 `json:"hook"`
	Cases       int                    `json:"cases"`
	Accepted    int                    `json:"accepted"`
	Refused     int                    `json:"refused"`
	Problems    map[string]int         `json:"problems"`
	Differences map[string]*difference `json:"differences"`
	Mutations   map[string]*tally      `json:"mutations"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("parity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	goURL := fs.String("go-url", "", "base URL of Cluster API's server SDK answering with echoes")
	goCA := fs.String("go-ca-file", "", "CA bundle of --go-url")
	url := fs.String("url", "", "base URL of the server under test")
	ca := fs.String("ca-file", "", "CA bundle of --url")
	seed := fs.Int64("seed", 1, "seed of the corpus")
	perHook := fs.Int("per-hook", 2000, "cases per hook")
	hooks := fs.String("hooks", "", "comma-separated hooks (default: every hook)")
	concurrency := fs.Int("concurrency", 4, "cases in flight")
	dumpDir := fs.String("dump-dir", "", "write the body of every case with a problem to <dir>/<hook>.<case>.json")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *goURL == "" || *goCA == "" || *url == "" || *ca == "" {
		fmt.Fprintln(stderr, "parity: --go-url, --go-ca-file, --url and --ca-file are required")
		return 2
	}
	goServer, err := connect(ctx, *goURL, *goCA)
	if err != nil {
		fmt.Fprintln(stderr, "parity: Cluster API's server:", err)
		return 1
	}
	ours, err := connect(ctx, *url, *ca)
	if err != nil {
		fmt.Fprintln(stderr, "parity: the server under test:", err)
		return 1
	}
	if *dumpDir != "" {
		if err := os.MkdirAll(*dumpDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "parity:", err)
			return 2
		}
	}
	var out sync.Mutex
	emit := func(v any) {
		b, _ := json.Marshal(v)
		out.Lock()
		defer out.Unlock()
		fmt.Fprintln(stdout, string(b))
	}
	for _, h := range samples.Hooks() {
		if *hooks != "" && !contains(strings.Split(*hooks, ","), h.Name) {
			continue
		}
		cases, err := parity.Corpus(h.Name, *seed, *perHook)
		if err != nil {
			fmt.Fprintln(stderr, "parity:", err)
			return 1
		}
		s := summary{Summary: true, Hook: h.Name, Cases: len(cases), Problems: map[string]int{}, Differences: map[string]*difference{}, Mutations: map[string]*tally{}}
		var mu sync.Mutex
		work := make(chan parity.Case)
		var wg sync.WaitGroup
		for w := 0; w < *concurrency; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for c := range work {
					goAnswer := goServer.post(ctx, h, c.Body)
					ourAnswer := ours.post(ctx, h, c.Body)
					outcome := parity.Outcome{}
					if c.Difference == "" {
						outcome = parity.Compare(parity.NewOf(h.NewRequest()), c.Body, goAnswer, ourAnswer)
						if h.Name == "Discovery" && outcome.Problem == "value" {
							outcome = parity.Outcome{} // Discovery's handler is the server's own: nothing echoed.
						}
					} else if goAnswer.Error != "" || ourAnswer.Error != "" {
						outcome = parity.Compare(parity.NewOf(h.NewRequest()), c.Body, goAnswer, ourAnswer)
					}
					mu.Lock()
					m := s.Mutations[c.Mutation]
					if m == nil {
						m = &tally{}
						s.Mutations[c.Mutation] = m
					}
					if ourAnswer.Refused {
						s.Refused++
						m.Refused++
					} else {
						s.Accepted++
						m.Accepted++
					}
					if outcome.Problem != "" {
						s.Problems[outcome.Problem]++
					}
					if c.Difference != "" {
						d := s.Differences[c.Difference]
						if d == nil {
							d = &difference{}
							s.Differences[c.Difference] = d
						}
						d.Cases++
						if goAnswer.Refused {
							d.GoRefused++
						}
						if ourAnswer.Refused {
							d.OursRefused++
						}
					}
					mu.Unlock()
					if outcome.Problem != "" || c.Difference != "" {
						emit(line{Hook: h.Name, Case: c.Name, Mutation: c.Mutation, Path: c.Path, Difference: c.Difference, Problem: outcome.Problem,
							Detail: outcome.Detail, GoRefused: goAnswer.Refused, OursRefused: ourAnswer.Refused})
					}
					if outcome.Problem != "" && *dumpDir != "" {
						_ = os.WriteFile(filepath.Join(*dumpDir, strings.ToLower(h.Name)+"."+c.Name+".json"), c.Body, 0o644)
					}
				}
			}()
		}
		for _, c := range cases {
			work <- c
		}
		close(work)
		wg.Wait()
		emit(s)
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

// connect discovers a server's handlers: the first one of each hook is the one called.
func connect(ctx context.Context, baseURL, caFile string) (*server, error) {
	client, err := wire.New(baseURL, caFile, "", "")
	if err != nil {
		return nil, err
	}
	discovery, _ := samples.Lookup("Discovery")
	body, err := json.Marshal(samples.DiscoveryRequest())
	if err != nil {
		return nil, err
	}
	response := &runtimehooksv1.DiscoveryResponse{}
	if _, err := client.Post(ctx, discovery.Path(""), body, 10*time.Second, response, false); err != nil {
		return nil, err
	}
	s := &server{client: client, handlers: map[string]string{"Discovery": ""}}
	for _, h := range response.Handlers {
		if _, ok := s.handlers[h.RequestHook.Hook]; !ok {
			s.handlers[h.RequestHook.Hook] = h.Name
		}
	}
	return s, nil
}

// post sends a case like Cluster API's client and reads the answer into the hook's Go response type.
func (s *server) post(ctx context.Context, h samples.Hook, body []byte) parity.Answer {
	handler, ok := s.handlers[h.Name]
	if !ok {
		return parity.Answer{Error: "no handler for " + h.Name}
	}
	response := h.NewResponse()
	if _, err := s.client.Post(ctx, h.Path(handler), body, 30*time.Second, response, false); err != nil {
		return parity.Answer{Error: err.Error()}
	}
	r := response.(runtimehooksv1.ResponseObject)
	switch {
	case r.GetStatus() == runtimehooksv1.ResponseStatusSuccess:
		return parity.Answer{Message: r.GetMessage()}
	case r.GetStatus() == runtimehooksv1.ResponseStatusFailure:
		if message, ok := parity.Refusal(r.GetMessage()); ok {
			return parity.Answer{Refused: true, Message: message}
		}
	}
	return parity.Answer{Error: fmt.Sprintf("status %q: %s", r.GetStatus(), r.GetMessage())}
}
