package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/cli"
)

// Flags that cannot do what they say are usage errors (exit 2) before anything is read, with
// one line saying what to do: a saved page that is not there or is a folder, a token beside
// saved pages only, -A beside -n.
func TestConflictingOrIgnoredFlagsAreUsageErrors(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.prom")
	if err := os.WriteFile(page, []byte("# TYPE workqueue_depth gauge\nworkqueue_depth{name=\"a\"} 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ns := "x"
	for _, c := range []struct {
		name string
		set  func(f *SourceFlags, g *cli.GlobalFlags)
		want string
	}{
		{"missing file", func(f *SourceFlags, _ *cli.GlobalFlags) { f.Files = []string{filepath.Join(dir, "nope.prom")} }, "nope.prom: no such file"},
		{"missing second page", func(f *SourceFlags, _ *cli.GlobalFlags) {
			f.Files = []string{page + "," + filepath.Join(dir, "after.prom")}
		}, "after.prom: no such file"},
		{"folder", func(f *SourceFlags, _ *cli.GlobalFlags) { f.Files = []string{dir} }, "is a folder"},
		{"token with saved pages", func(f *SourceFlags, _ *cli.GlobalFlags) { f.Files, f.Token = []string{page}, "abc" }, "--from-file reads saved pages"},
		{"token file with saved pages", func(f *SourceFlags, _ *cli.GlobalFlags) { f.Files, f.TokenFile = []string{page}, page }, "--from-file reads saved pages"},
		{"-A with -n", func(f *SourceFlags, g *cli.GlobalFlags) {
			f.Files, g.AllNamespaces, g.ConfigFlags.Namespace = []string{page}, true, &ns
		}, "-A reads every namespace and -n one"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := SourceDefaults()
			g := testGlobals()
			c.set(&f, g)
			_, err := f.Spec(g, nil)
			code, msg := cli.CodeFor(err)
			if code != cli.ExitUsage || !strings.Contains(msg, c.want) || strings.Contains(msg, "abc") {
				t.Errorf("exit %d %q, want exit %d and %q", code, msg, cli.ExitUsage, c.want)
			}
		})
	}
	// The same flags that can act are taken: a page that is there, a token with a URL.
	f := SourceDefaults()
	f.Files, f.URLs, f.Token = []string{page}, []string{"http://127.0.0.1:1/metrics"}, "abc"
	g := testGlobals()
	if _, err := f.Spec(g, nil); err != nil {
		t.Errorf("a page that is there and a token with a URL: %v", err)
	}
}
