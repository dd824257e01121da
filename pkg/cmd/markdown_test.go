package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/ctrldiag/kubectl-ctrldiag/pkg/cmd/operator"
)

const commandsDir = "../../docs/commands"

// pages renders docs/commands as the command tree is now, with the home directory fixed, as
// for the help golden files.
func pages(t *testing.T) map[string]string {
	t.Helper()
	t.Setenv("HOME", "/home/user")
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	return CommandPages(NewRootCmd(streams), operator.NewRootCmd(streams))
}

// TestCommandPages keeps docs/commands equal to what CommandPages makes of the command tree:
// a page per verb, generated from its help and flags. -update rewrites them.
func TestCommandPages(t *testing.T) {
	want := pages(t)
	if *update {
		if err := os.MkdirAll(commandsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		old, _ := filepath.Glob(filepath.Join(commandsDir, "*.md"))
		for _, f := range old {
			if _, ok := want[filepath.Base(f)]; !ok {
				os.Remove(f)
			}
		}
		for name, md := range want {
			if err := os.WriteFile(filepath.Join(commandsDir, name), []byte(md), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(commandsDir, "*.md"))
	for _, f := range files {
		if _, ok := want[filepath.Base(f)]; !ok {
			t.Errorf("docs/commands/%s is no command's page: remove it (go test ./pkg/cmd -run TestCommandPages -update)", filepath.Base(f))
		}
	}
	for name, md := range want {
		b, err := os.ReadFile(filepath.Join(commandsDir, name))
		if err != nil || string(b) != md {
			t.Errorf("docs/commands/%s differs from the command's help: go test ./pkg/cmd -run TestCommandPages -update", name)
		}
	}
}

// kubectlFlags are the flags every kubectl plugin takes from cli-runtime (--kubeconfig,
// --context, ...); the page of kubectl ctrldiag lists them once, not per command.
var kubectlFlags = map[string]bool{}

func init() {
	for _, name := range []string{"as", "as-group", "as-uid", "as-user-extra", "cache-dir", "certificate-authority",
		"client-certificate", "client-key", "cluster", "context", "disable-compression", "insecure-skip-tls-verify",
		"kubeconfig", "namespace", "request-timeout", "server", "tls-server-name", "token", "user", "help", "proxy-url"} {
		kubectlFlags[name] = true
	}
}

// Every flag a user can see in some command's -h is on that command's page of
// docs/commands (the global ones on the page of kubectl ctrldiag): a flag missing there is a
// flag nobody finds.
func TestCommandPagesNameEveryFlag(t *testing.T) {
	docs := pages(t)
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	missing := map[string][]string{}
	check := func(page string, c *cobra.Command, f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		if !regexp.MustCompile("`--" + regexp.QuoteMeta(f.Name) + "`").MatchString(docs[page]) {
			missing[f.Name] = append(missing[f.Name], c.CommandPath()+" ("+page+")")
		}
	}
	var walk func(page string, c *cobra.Command)
	walk = func(page string, c *cobra.Command) {
		if c.Hidden {
			return
		}
		c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
			if kubectlFlags[f.Name] || (!c.HasParent() && c.PersistentFlags().Lookup(f.Name) != nil) {
				return
			}
			check(page, c, f)
		})
		for _, sub := range c.Commands() {
			walk(page, sub)
		}
	}
	root := NewRootCmd(streams)
	root.PersistentFlags().VisitAll(func(f *pflag.Flag) { check("README.md", root, f) })
	for _, c := range root.Commands() {
		if c.Name() != "operator" && c.Name() != "help" {
			walk(c.Name()+".md", c)
		}
	}
	walk("operator.md", operator.NewRootCmd(streams))
	names := make([]string, 0, len(missing))
	for n := range missing {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Errorf("docs/commands does not name --%s on the page of %v", n, missing[n])
	}
}

// README links every page of docs/commands, so that a reader finds each command's reference.
func TestReadmeLinksEveryCommandPage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range pages(t) {
		if !strings.Contains(string(readme), "](docs/commands/"+name+")") {
			t.Errorf("README.md does not link docs/commands/%s", name)
		}
	}
}
