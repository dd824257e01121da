// Command gentables compiles a YAML table of the plugin into the Go file beside it: run by
// `go generate` in pkg/judge/findings (-table findings) and pkg/facts/knobs (-table knobs) after their
// YAML changed. A change to the tables' Go types that the generated file no longer compiles
// against needs the generated var emptied by hand first (the program builds with it).
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/gen/gentables"
)

func main() {
	var names []string
	for n := range gentables.Tables {
		names = append(names, n)
	}
	sort.Strings(names)
	name := flag.String("table", "", fmt.Sprintf("the table to compile, in its package's folder: one of %v", names))
	flag.Parse()
	t, ok := gentables.Tables[*name]
	if !ok {
		fmt.Fprintf(os.Stderr, "gentables: -table must be one of %v\n", names)
		os.Exit(2)
	}
	if err := t.Write("."); err != nil {
		fmt.Fprintf(os.Stderr, "gentables: %v\n", err)
		os.Exit(1)
	}
}
