package cli

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// completeTimeout bounds the operator binary's answer to a completion: a shell waits for it
// after each TAB.
const completeTimeout = 2 * time.Second

// OperatorSubcommands are the operator binary's commands, offered when it cannot be asked.
var OperatorSubcommands = []string{"run", "install", "uninstall", "version"}

// findBinary finds the operator binary as the command does (a variable for tests).
var findBinary = func() (string, error) {
	self, _ := os.Executable()
	return FindOperator(self, exec.LookPath)
}

// askBinary runs the operator binary's own completion (a variable for tests).
var askBinary = func(ctx context.Context, path string, args []string) ([]byte, error) {
	return exec.CommandContext(ctx, path, append([]string{cobra.ShellCompRequestCmd}, args...)...).Output()
}

// complete completes `operator ...`: the command parses no flags, so what follows "operator"
// is the operator binary's, and that binary is asked, as kubectl would ask it. Without it,
// the sub-commands are offered; never files, which no operator argument is.
func complete(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if path, err := findBinary(); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), completeTimeout)
		defer cancel()
		if out, err := askBinary(ctx, path, append(append([]string{}, args...), toComplete)); err == nil {
			if values, directive, ok := parseCompletion(out); ok {
				return values, directive
			}
		}
	}
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, s := range OperatorSubcommands {
		if strings.HasPrefix(s, toComplete) {
			out = append(out, s)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// parseCompletion reads what `__complete` prints: one value a line, then ":DIRECTIVE".
func parseCompletion(out []byte) ([]cobra.Completion, cobra.ShellCompDirective, bool) {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, ":") {
		return nil, 0, false
	}
	d, err := strconv.Atoi(last[1:])
	if err != nil {
		return nil, 0, false
	}
	var values []cobra.Completion
	for _, l := range lines[:len(lines)-1] {
		if l != "" {
			values = append(values, l)
		}
	}
	return values, cobra.ShellCompDirective(d), true
}
