package cli

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// The operator's arguments complete as its binary completes them; without the binary, with
// its sub-commands; never with files.
func TestCompleteAsksTheOperatorBinary(t *testing.T) {
	oldFind, oldAsk := findBinary, askBinary
	t.Cleanup(func() { findBinary, askBinary = oldFind, oldAsk })
	var asked []string
	findBinary = func() (string, error) { return "/opt/kubectl-ctrldiag-operator", nil }
	askBinary = func(_ context.Context, path string, args []string) ([]byte, error) {
		asked = append([]string{path}, args...)
		return []byte("slow\tworkers busy\nstuck\n:4\n"), nil
	}
	values, d := complete(nil, []string{"install", "--scenario"}, "s")
	if !slices.Equal(asked, []string{"/opt/kubectl-ctrldiag-operator", "install", "--scenario", "s"}) {
		t.Errorf("asked %q, want the binary with the arguments and the word typed", asked)
	}
	if !slices.Equal(values, []string{"slow\tworkers busy", "stuck"}) || d != cobra.ShellCompDirectiveNoFileComp {
		t.Errorf("got %q %d, want the binary's answer", values, d)
	}

	for name, ask := range map[string]func(context.Context, string, []string) ([]byte, error){
		"fails":      func(context.Context, string, []string) ([]byte, error) { return nil, errors.New("exit 1") },
		"talks rot":  func(context.Context, string, []string) ([]byte, error) { return []byte("run\nno directive\n"), nil },
		"is missing": nil,
	} {
		askBinary = ask
		findBinary = func() (string, error) { return "/opt/kubectl-ctrldiag-operator", nil }
		if ask == nil {
			findBinary = func() (string, error) { return "", errors.New("not found") }
		}
		values, d := complete(nil, nil, "")
		if !slices.Equal(values, OperatorSubcommands) || d != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("binary %s: %q %d, want the sub-commands and no files", name, values, d)
		}
		values, d = complete(nil, nil, "un")
		if !slices.Equal(values, []string{"uninstall"}) || d != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("binary %s, un: %q %d", name, values, d)
		}
		if values, d = complete(nil, []string{"install"}, ""); len(values) != 0 || d != cobra.ShellCompDirectiveNoFileComp {
			t.Errorf("binary %s, install: %q %d, want nothing and no files", name, values, d)
		}
	}
}
