package cmd

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ctrldiag/kubectl-ctrldiag/internal/testkit/golden"

	"github.com/spf13/cobra"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/: help, queues and firstscreen")

// helpVerbs are the commands whose -h is kept in testdata/help, by file name; "root" is
// kubectl ctrldiag itself.
var helpVerbs = map[string][]string{
	"root": nil, "queues": {"queues"}, "report": {"report"}, "top": {"top"}, "targets": {"targets"},
	"snapshot": {"snapshot"}, "diff": {"diff"}, "rules": {"rules"}, "explain": {"explain"}, "version": {"version"},
}

// maxHelpLines bounds the text before "Usage:", in 80 columns: help says what a command does
// and points to kubectl ctrldiag explain and the docs for the details.
const maxHelpLines = 34

func help(t *testing.T, args []string) string {
	t.Helper()
	t.Setenv("HOME", "/home/user") // --cache-dir's default is under it
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	root := NewRootCmd(streams)
	root.SetArgs(append(append([]string{}, args...), "-h"))
	if err := root.Execute(); err != nil {
		t.Fatalf("%q -h: %v", args, err)
	}
	return out.String()
}

// Every verb's -h is the one in testdata/help (go test ./pkg/cmd -run TestHelp -update
// rewrites them after a deliberate change).
func TestHelpGolden(t *testing.T) {
	for name, args := range helpVerbs {
		got := help(t, args)
		golden.Check(t, filepath.Join("testdata", "help", name+".txt"), []byte(got), *update, "go test ./pkg/cmd -run TestHelpGolden -update")
	}
}

// Every verb's help is at most maxHelpLines before "Usage:", and has two to four examples.
func TestHelpIsShort(t *testing.T) {
	for name, args := range helpVerbs {
		got := help(t, args)
		before, _, ok := strings.Cut(got, "\nUsage:")
		if !ok {
			t.Errorf("%s -h has no Usage:", name)
			continue
		}
		if n := strings.Count(before, "\n") + 1; n > maxHelpLines {
			t.Errorf("%s -h has %d lines before Usage:, at most %d", name, n, maxHelpLines)
		}
		if strings.Contains(got, "SECURITY.md") {
			t.Errorf("%s -h points to SECURITY.md, which a krew install does not have", name)
		}
		_, examples, _ := strings.Cut(got, "\nExamples:\n")
		if i := strings.Index(examples, "\n\n"+"Flags:"); i >= 0 {
			examples = examples[:i]
		}
		if i := strings.Index(examples, "\n\nAvailable Commands:"); i >= 0 {
			examples = examples[:i]
		}
		// An example is a block of comment and command lines; blocks are apart by a blank line.
		if n := len(strings.Split(strings.TrimSpace(examples), "\n\n")); examples == "" || n < 2 || n > 4 {
			t.Errorf("%s -h has %d examples, want two to four", name, n)
		}
	}
}

// Every command's -h, the operator's too, keeps to 80 columns, as a terminal shows it without
// reflowing: a line may pass them only when it is one word alone.
func TestHelpFits80Columns(t *testing.T) {
	t.Setenv("HOME", "/home/user")
	streams, _, _, _ := genericiooptions.NewTestIOStreams()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var out strings.Builder
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatalf("%s -h: %v", c.CommandPath(), err)
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 && len(strings.Fields(line)) > 1 {
				t.Errorf("%s -h: a line of %d columns: %q", c.CommandPath(), n, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRootCmd(streams))
}
