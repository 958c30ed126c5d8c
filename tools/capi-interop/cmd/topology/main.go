// Command topology puts Cluster API's topology mutation toolkit (exp/runtime/topologymutation) beside ours:
//
//	topology generate --seed N --count K
//	topology apply
//
// generate prints one JSON line per random GeneratePatches request (internal/randomized.TopologyRequest):
//
//	{"name":..,"request":..,"responses":{"JSONPatch":..,"JSONMergePatch":..},"lookups":[{"item","path","get","string","bool"},...]}
//
// where responses are WalkTemplates' answers with the mutations of internal/walk, and lookups what GetVariable,
// GetStringVariable and GetBoolVariable say about paths of each item's merged variables ({"value"}, {"notFound"}
// or {"error"}). apply reads lines {"request":..,"response":..} and prints, per line, {"templates":[..]} (every
// template of the request after Cluster API's patch engine applied the answer's patches) or {"error":..}.
// Exit code 0 once every line was handled, 2 on usage errors.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	runtimehooksv1 "sigs.k8s.io/cluster-api/api/runtime/hooks/v1alpha1"

	"runtime-sdk.invalid/capi-interop/internal/randomized"
	"runtime-sdk.invalid/capi-interop/internal/walk"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "generate" && args[0] != "apply") {
		fmt.Fprintln(stderr, "usage: topology generate --seed N --count K | topology apply")
		return 2
	}
	if args[0] == "apply" {
		return apply(stdin, stdout, stderr)
	}
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Int64("seed", 1, "seed of the generated requests")
	count := fs.Int("count", 300, "number of requests")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for i := 0; i < *count; i++ {
		c, err := generate(*seed, randomized.TopologyCaseName(i))
		if err != nil {
			fmt.Fprintln(stderr, "topology:", err)
			return 1
		}
		if err := enc.Encode(c); err != nil {
			fmt.Fprintln(stderr, "topology:", err)
			return 1
		}
	}
	return 0
}

// Case is one line of generate.
type Case struct {
	Name      string                                                               `json:"name"`
	Request   *runtimehooksv1.GeneratePatchesRequest                               `json:"request"`
	Responses map[runtimehooksv1.PatchType]*runtimehooksv1.GeneratePatchesResponse `json:"responses"`
	Lookups   []walk.Lookup                                                        `json:"lookups"`
}

// generate makes a case; the request is decoded from its JSON first, as an extension receives it (a null variable
// value, for one, is then an empty apiextensionsv1.JSON).
func generate(seed int64, name string) (*Case, error) {
	made, err := randomized.TopologyRequest(seed, name)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(made)
	if err != nil {
		return nil, err
	}
	req := &runtimehooksv1.GeneratePatchesRequest{}
	if err := json.Unmarshal(raw, req); err != nil {
		return nil, err
	}
	c := &Case{Name: name, Request: req, Responses: map[runtimehooksv1.PatchType]*runtimehooksv1.GeneratePatchesResponse{}}
	for _, format := range []runtimehooksv1.PatchType{runtimehooksv1.JSONPatchType, runtimehooksv1.JSONMergePatchType} {
		c.Responses[format] = walk.GeneratePatches(req.DeepCopy(), format)
	}
	if c.Lookups, err = walk.Lookups(req, paths); err != nil {
		return nil, err
	}
	return c, nil
}

// fixedPaths are read from every item: builtin paths, the mutations' variables, not-found and refused paths.
var fixedPaths = []string{
	"", "builtin", "builtin.", "builtin.missing", "builtin.cluster.name", "builtin.cluster.topology.version",
	"builtin.cluster.topology.classRef.name", "builtin.cluster.network.services[0]", "builtin.cluster.network.services[9]",
	"builtin.cluster.network.pods.0", "builtin.cluster.metadata.labels", "builtin.controlPlane.version", "builtin.controlPlane.replicas",
	"builtin.controlPlane.machineTemplate.infrastructureRef.name", "builtin.machineDeployment.class", "builtin.machineDeployment.version",
	"builtin.machineDeployment.replicas", "builtin.machinePool.version", "builtin.cluster.name[0]",
	"content", "content.x", "content[0]", "flag", "flag.x", "files", "files[0]", "files[0].path", "files.1.content", "files[7]",
	"files[x]", "files[-1]", "files[0", "files]", "files[0]x", "files[+1].path", "commands[0]", "commands",
	"labels.a/b", "labels.c~d", "labels.e", "labels.e.f", "labels.~1", "missing", "missing[0]", "missing.x",
}

// paths are the fixed paths and, for the variables present, paths into their values (fields, list indexes).
func paths(vars map[string]apiextensionsv1.JSON) []string {
	out := append([]string{}, fixedPaths...)
	names := make([]string, 0, len(vars))
	for name := range vars {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var value any
		if err := json.Unmarshal(vars[name].Raw, &value); err != nil {
			continue
		}
		out = append(out, name)
		out = walkPaths(name, value, 3, out)
	}
	return out
}

func walkPaths(prefix string, value any, depth int, out []string) []string {
	if depth == 0 {
		return out
	}
	switch v := value.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, prefix+"."+k)
			out = walkPaths(prefix+"."+k, v[k], depth-1, out)
		}
	case []any:
		for i := range v {
			out = append(out, prefix+"["+strconv.Itoa(i)+"]", prefix+"."+strconv.Itoa(i))
			out = walkPaths(prefix+"["+strconv.Itoa(i)+"]", v[i], depth-1, out)
		}
		out = append(out, prefix+"["+strconv.Itoa(len(v))+"]")
	}
	return out
}

type applyLine struct {
	Request  *runtimehooksv1.GeneratePatchesRequest  `json:"request"`
	Response *runtimehooksv1.GeneratePatchesResponse `json:"response"`
}

type applied struct {
	Templates []json.RawMessage `json:"templates,omitempty"`
	Error     string            `json:"error,omitempty"`
}

func apply(stdin io.Reader, stdout, stderr io.Writer) int {
	in := bufio.NewReader(stdin)
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			var l applyLine
			var result applied
			if err := json.Unmarshal(line, &l); err != nil {
				result.Error = err.Error()
			} else if result.Templates, err = walk.Apply(l.Request, l.Response); err != nil {
				result.Error = err.Error()
			}
			if err := enc.Encode(result); err != nil {
				fmt.Fprintln(stderr, "topology:", err)
				return 1
			}
			out.Flush()
		}
		if err == io.EOF {
			return 0
		}
		if err != nil {
			fmt.Fprintln(stderr, "topology:", err)
			return 1
		}
	}
}
