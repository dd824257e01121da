package cli

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func binaryName() string {
	if runtime.GOOS == "windows" {
		return OperatorBinary + ".exe"
	}
	return OperatorBinary
}

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func noPath(string) (string, error) { return "", errors.New("not found") }

func TestFindNextToThePlugin(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "kubectl-ctrldiag")
	touch(t, self)
	touch(t, filepath.Join(dir, binaryName()))
	got, err := FindOperator(self, noPath)
	if err != nil || got != filepath.Join(dir, binaryName()) {
		t.Fatalf("Find = %q, %v", got, err)
	}
}

// krew links only the plugin onto PATH; the operator binary stays in krew's store beside the
// link's target.
func TestFindThroughKrewSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("krew copies instead of linking on Windows")
	}
	store, bin := t.TempDir(), t.TempDir()
	touch(t, filepath.Join(store, "kubectl-ctrldiag"))
	touch(t, filepath.Join(store, binaryName()))
	link := filepath.Join(bin, "kubectl-ctrldiag")
	if err := os.Symlink(filepath.Join(store, "kubectl-ctrldiag"), link); err != nil {
		t.Fatal(err)
	}
	got, err := FindOperator(link, noPath)
	wantDir, _ := filepath.EvalSymlinks(store)
	if err != nil || filepath.Dir(got) != wantDir {
		t.Fatalf("Find = %q, %v; want it in %s", got, err, wantDir)
	}
}

func TestFindOnPath(t *testing.T) {
	self := filepath.Join(t.TempDir(), "kubectl-ctrldiag")
	got, err := FindOperator(self, func(name string) (string, error) { return "/somewhere/" + name, nil })
	if err != nil || got != "/somewhere/"+binaryName() {
		t.Fatalf("Find = %q, %v", got, err)
	}
}

func TestFindMissingSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	_, err := FindOperator(filepath.Join(dir, "kubectl-ctrldiag"), noPath)
	if err == nil {
		t.Fatal("no error without the operator binary")
	}
	for _, want := range []string{binaryName(), dir, "same release archive", "make build"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// Everything after "operator", and the global flags before it, reach the operator binary as
// typed: the launcher parses nothing, not even -h.
func TestArgumentsHandedOverAsTyped(t *testing.T) {
	var got []string
	handOver = func(_ string, args []string, _ genericiooptions.IOStreams) error { got = args; return nil }
	t.Cleanup(func() { handOver = execBinary })
	dir := t.TempDir()
	touch(t, filepath.Join(dir, binaryName()))
	t.Setenv("PATH", dir)

	for _, tc := range []struct{ args, want []string }{
		{[]string{"operator", "run", "--scenario", "stuck", "-n", "demo"}, []string{"run", "--scenario", "stuck", "-n", "demo"}},
		{[]string{"-n", "demo", "operator", "install", "--dry-run=client"}, []string{"-n", "demo", "install", "--dry-run=client"}},
		{[]string{"operator", "-h"}, []string{"-h"}},
	} {
		got = nil
		root := &cobra.Command{Use: "kubectl-ctrldiag", SilenceErrors: true, SilenceUsage: true}
		root.PersistentFlags().StringP("namespace", "n", "", "")
		root.AddCommand(NewOperatorLaunchCmd(genericiooptions.NewTestIOStreamsDiscard()))
		root.SetArgs(tc.args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: handed over %q, want %q", tc.args, got, tc.want)
		}
	}
}
