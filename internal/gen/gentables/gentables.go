// Package gentables compiles the YAML tables the plugin ships (the findings catalog, the
// knobs of well-known controllers) into Go source, as hack/gentables writes them and the
// packages' tests check them: the tables stay YAML for people to read and edit, and a run
// starts with them already built instead of parsing them.
package gentables

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/gen/goliteral"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs"
	"github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings"
)

// Table is one YAML table and the Go file it is compiled into, both in its package's folder.
type Table struct {
	YAML, Go string
	// source compiles the YAML's text into the Go file's.
	source func([]byte) ([]byte, error)
}

// generator names the program in the generated files' header.
const generator = "hack/gentables from the YAML beside it"

// Tables are the tables by name.
var Tables = map[string]Table{
	"findings": {YAML: "catalog.yaml", Go: "catalog_gen.go", source: func(b []byte) ([]byte, error) {
		defs, err := findings.ParseCatalog(b)
		if err != nil {
			return nil, err
		}
		return goliteral.File("findings", "github.com/ctrldiag/kubectl-ctrldiag/pkg/judge/findings", generator,
			"catalogDefinitions are the definitions of catalog.yaml, in its order.", "catalogDefinitions", defs)
	}},
	"knobs": {YAML: "knobs.yaml", Go: "knobs_gen.go", source: func(b []byte) ([]byte, error) {
		t, err := knobs.ParseTable(b)
		if err != nil {
			return nil, err
		}
		return goliteral.File("knobs", "github.com/ctrldiag/kubectl-ctrldiag/pkg/facts/knobs", generator,
			"knownTable is knobs.yaml.", "knownTable", t)
	}},
}

// Source reads the table's YAML in dir and returns the Go source it compiles into.
func (t Table) Source(dir string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, t.YAML))
	if err != nil {
		return nil, err
	}
	return t.source(b)
}

// Check reports an error when the Go file in dir is not what the YAML beside it compiles
// into.
func (t Table) Check(dir, name string) error {
	want, err := t.Source(dir)
	if err != nil {
		return err
	}
	got, err := os.ReadFile(filepath.Join(dir, t.Go))
	if err != nil {
		return err
	}
	if string(got) != string(want) {
		return fmt.Errorf("%s is not what %s compiles into: run `go generate` in that package (hack/gentables -table %s)", t.Go, t.YAML, name)
	}
	return nil
}

// Write compiles the YAML in dir into its Go file there, replacing only a regular file.
func (t Table) Write(dir string) error {
	src, err := t.Source(dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, t.Go)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file: not replaced", path)
	}
	return os.WriteFile(path, src, 0o644)
}
