// Command go-regexp answers regular-expression cases with Go's regexp package, for src/go/regexp.ts's recorded
// fixture (tools/go-regexp/record.ts). It reads one JSON case per line on stdin ({"pattern", "input", "replacement"})
// and writes one JSON answer per line: Compile's error, or what each method the project ports returns.
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
)

type goCase struct {
	Pattern     string `json:"pattern"`
	Input       string `json:"input"`
	Replacement string `json:"replacement"`
}

type refusal struct {
	Error string `json:"error"`
}

type answer struct {
	Match          bool     `json:"match"`
	Find           string   `json:"find"`
	FindAll        []string `json:"findAll"`
	FindAll2       []string `json:"findAll2"`
	ReplaceAll     string   `json:"replaceAll"`
	ReplaceLiteral string   `json:"replaceLiteral"`
	Split          []string `json:"split"`
	Split2         []string `json:"split2"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var c goCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			panic(err)
		}
		re, err := regexp.Compile(c.Pattern)
		if err != nil {
			_ = enc.Encode(refusal{Error: err.Error()})
			continue
		}
		_ = enc.Encode(answer{
			Match:          re.MatchString(c.Input),
			Find:           re.FindString(c.Input),
			FindAll:        re.FindAllString(c.Input, -1),
			FindAll2:       re.FindAllString(c.Input, 2),
			ReplaceAll:     re.ReplaceAllString(c.Input, c.Replacement),
			ReplaceLiteral: re.ReplaceAllLiteralString(c.Input, c.Replacement),
			Split:          re.Split(c.Input, -1),
			Split2:         re.Split(c.Input, 2),
		})
	}
	if err := in.Err(); err != nil {
		panic(err)
	}
}
