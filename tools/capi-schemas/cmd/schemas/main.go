// Command schemas writes the JSON snapshot of the OpenAPI v3 schemas of Cluster API's
// Runtime Hook request/response types and every type they reference (-set hooks, the default),
// or of the template kinds topology mutation extensions patch (-set templates), or the CRD schemas of the
// Cluster API kinds simulate reads (-set crds).
//
//	schemas [-set hooks|templates|crds] [-o file]
//
// Without -o the document goes to stdout. It needs the go command and the module
// cache holding this module's dependencies (controller-tools parses their source).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"runtime-sdk.invalid/capi-schemas/internal/gen"
)

func main() {
	out := flag.String("o", "", "write the document to this file instead of stdout")
	set := flag.String("set", "hooks", "the document: hooks (hooks/v1alpha1/definitions.json), templates (hooks/v1alpha1/templates.json) or crds (hooks/v1alpha1/crds.json)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: %s [-set hooks|templates|crds] [-o file]\n", filepath.Base(os.Args[0]))
		flag.PrintDefaults()
	}
	flag.Parse()
	generate := map[string]func() ([]byte, error){"hooks": gen.Generate, "templates": gen.GenerateTemplates, "crds": gen.GenerateCRDs}[*set]
	if flag.NArg() != 0 || generate == nil {
		flag.Usage()
		os.Exit(2)
	}
	doc, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemas:", err)
		os.Exit(1)
	}
	if *out == "" {
		if _, err := os.Stdout.Write(doc); err != nil {
			fmt.Fprintln(os.Stderr, "schemas:", err)
			os.Exit(1)
		}
		return
	}
	if err := writeFile(*out, doc); err != nil {
		fmt.Fprintln(os.Stderr, "schemas:", err)
		os.Exit(1)
	}
}

// writeFile replaces path atomically, creating its directory.
func writeFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".schemas-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
