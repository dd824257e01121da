package cmd

import (
	"os"
	"regexp"
	"sort"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// kubectlFlags are the flags every kubectl plugin takes from cli-runtime (--kubeconfig,
// --context, ...); README names them once, not per command.
var kubectlFlags = map[string]bool{}

func init() {
	for _, name := range []string{"as", "as-group", "as-uid", "as-user-extra", "cache-dir", "certificate-authority",
		"client-certificate", "client-key", "cluster", "context", "disable-compression", "insecure-skip-tls-verify",
		"kubeconfig", "namespace", "request-timeout", "server", "tls-server-name", "token", "user", "help", "proxy-url"} {
		kubectlFlags[name] = true
	}
}

// Every flag a user can see in some command's -h is in README's command reference: the
// reference is what users read first, and a flag missing there is a flag nobody finds.
func TestReadmeNamesEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	missing := map[string][]string{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || kubectlFlags[f.Name] {
				return
			}
			named := regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).Match(readme)
			if f.Shorthand != "" {
				// README may use the short form (-o json, -f FILE, -v 1) alone.
				named = named || regexp.MustCompile("[\\s`(]-"+regexp.QuoteMeta(f.Shorthand)+`\b`).Match(readme)
			}
			if !named {
				missing[f.Name] = append(missing[f.Name], c.CommandPath())
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRootCmd(streams))
	names := make([]string, 0, len(missing))
	for n := range missing {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Errorf("README does not name --%s (of %v)", n, missing[n])
	}
}
