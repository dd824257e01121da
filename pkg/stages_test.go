// Package pkg_test checks that the folders under pkg/ are the stages of a run, in order, and
// that docs/architecture.md names every package in them.
package pkg_test

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/ctrldiag/kubectl-ctrldiag/"

// stages are the folders under pkg/ in the order a run goes through them; a package may
// import only from its own stage or an earlier one. The packages every stage shares sit at the
// top of pkg/ (stage 0). The reference operator is apart: it imports what it likes of the
// plugin's code, and the plugin nothing of it.
var stages = []string{"", "parse", "facts", "model", "sources", "judge", "view", "print", "run", "cmd"}

// shared are the packages at the top of pkg/ that every stage may use.
var shared = []string{"access", "localfile", "printable", "redact", "target", "version"}

// stageOf is the stage of a package path under pkg/ ("pkg/view/report"), -1 for the operator.
func stageOf(t *testing.T, rel string) int {
	t.Helper()
	parts := strings.Split(strings.TrimPrefix(rel, "pkg/"), "/")
	if parts[0] == "operator" {
		return -1
	}
	if slices.Contains(shared, parts[0]) && len(parts) == 1 {
		return 0
	}
	i := slices.Index(stages, parts[0])
	if i <= 0 {
		t.Fatalf("%s is in no stage: put it in one of %v, or among the shared packages %v", rel, stages[1:], shared)
	}
	return i
}

// packages are the packages under pkg/ (relative paths) and the imports of their production
// files.
func packages(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none || (err == nil && len(p.GoFiles) == 0) {
			return nil
		}
		if err != nil {
			return err
		}
		out[filepath.ToSlash(filepath.Join("pkg", path))] = p.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found only %d packages under pkg/", len(out))
	}
	return out
}

// No package imports one of a later stage: the sources and the facts never import the
// judging, the views or the run layer; the views never import the printing or the run layer;
// only the commands import the run layer.
func TestStagesImportOnlyEarlierStages(t *testing.T) {
	for pkg, imports := range packages(t) {
		from := stageOf(t, pkg)
		for _, imp := range imports {
			rel, ok := strings.CutPrefix(imp, module)
			if !ok || !strings.HasPrefix(rel, "pkg/") {
				continue
			}
			to := stageOf(t, rel)
			switch {
			case to == -1 && from != -1 && !strings.HasPrefix(pkg, "pkg/cmd/operator"):
				t.Errorf("%s imports %s: only the operator's own commands import the reference operator", pkg, rel)
			case from >= 0 && to > from:
				t.Errorf("%s (stage %s) imports %s, of the later stage %s", pkg, name(from), rel, name(to))
			}
		}
	}
}

func name(stage int) string {
	if stage == 0 {
		return "shared"
	}
	return stages[stage]
}

// docs/architecture.md has a line for every package under pkg/, and names none that is gone.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	pkgs := packages(t)
	for pkg := range pkgs {
		if !strings.Contains(doc, "`"+pkg+"`") {
			t.Errorf("docs/architecture.md has no line for `%s`", pkg)
		}
	}
	for _, field := range strings.Split(doc, "`") {
		if strings.HasPrefix(field, "pkg/") && !strings.ContainsAny(field, " .*") {
			if _, ok := pkgs[strings.TrimSuffix(field, "/")]; !ok && !isFolder(field) {
				t.Errorf("docs/architecture.md names `%s`, which is no package", field)
			}
		}
	}
}

// isFolder says whether path (relative to the module) is a folder of packages.
func isFolder(path string) bool {
	fi, err := os.Stat(filepath.Join("..", path))
	return err == nil && fi.IsDir()
}
