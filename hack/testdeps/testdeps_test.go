package testdeps

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const script = "../test-deps.sh"

// run runs the script with bash by absolute path, so that PATH can be emptied of everything else.
func run(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/bash", append([]string{script}, args...)...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// packages returns the Debian packages of the script's list, from its markdown form.
func packages(t *testing.T, markdown string) []string {
	t.Helper()
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(markdown), "\n") {
		f := strings.Split(line, "`")
		if len(f) < 3 || !strings.HasPrefix(line, "- `") {
			t.Fatalf("--markdown line %q is not \"- `package` (`command`): why\"", line)
		}
		pkgs = append(pkgs, f[1])
	}
	if len(pkgs) == 0 {
		t.Fatal("--markdown printed no packages")
	}
	return pkgs
}

// docs/testing.md lists the packages hack/test-deps.sh installs, as --markdown writes them.
func TestTestingDocListsTheScriptsPackages(t *testing.T) {
	md, err := run(t, os.Environ(), "--markdown")
	if err != nil {
		t.Fatalf("--markdown: %v\n%s", err, md)
	}
	doc, err := os.ReadFile("../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- BEGIN test-deps", "<!-- END test-deps -->"
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("docs/testing.md has no %q ... %q block", begin, end)
	}
	block := s[i:j]
	block = block[strings.Index(block, "\n")+1:]
	if block != md {
		t.Errorf("docs/testing.md's package list differs from hack/test-deps.sh --markdown; paste this between the markers:\n%s\ndocs/testing.md has:\n%s", md, block)
	}
}

// A machine without the packages learns each one's name and the command to install it, and the
// script fails; the same holds in install mode for a user who is not root (nothing is installed).
func TestMissingPackagesAreNamed(t *testing.T) {
	md, err := run(t, os.Environ(), "--markdown")
	if err != nil {
		t.Fatalf("--markdown: %v\n%s", err, md)
	}
	want := packages(t, md)

	// A PATH with nothing the script looks for but id, in a folder that user nobody may read
	// (t.TempDir's parent is private to root).
	bare, err := os.MkdirTemp("", "testdeps-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bare) })
	id, err := exec.LookPath("id")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(id, filepath.Join(bare, "id")); err != nil {
		t.Fatal(err)
	}
	// A copy of the script that user nobody may read, wherever the checkout is.
	body, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(bare, "test-deps.sh")
	if err := os.WriteFile(copied, body, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + bare}

	type runCase struct {
		name string
		argv []string
	}
	cases := []runCase{{"--check", []string{"/bin/bash", copied, "--check"}}}
	switch {
	case os.Geteuid() != 0:
		cases = append(cases, runCase{"install mode", []string{"/bin/bash", copied}})
	default: // as root, install mode is tried as user nobody
		if setpriv, err := exec.LookPath("setpriv"); err == nil {
			cases = append(cases, runCase{"install mode as nobody",
				[]string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/bash", copied}})
		}
	}
	for _, c := range cases {
		cmd := exec.Command(c.argv[0], c.argv[1:]...)
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		out, args := string(b), c.name
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("%v: want exit 1 for missing packages, got %v\n%s", args, err, out)
		}
		for _, p := range want {
			if !strings.Contains(out, " "+p) {
				t.Errorf("%v: output does not name package %s:\n%s", args, p, out)
			}
		}
		if !strings.Contains(out, "apt-get install -y "+strings.Join(want, " ")) {
			t.Errorf("%v: output does not give the install command for all of them:\n%s", args, out)
		}
		if !strings.Contains(out, "kubectl") {
			t.Errorf("%v: output does not name kubectl:\n%s", args, out)
		}
		if strings.Contains(out, "installing") {
			t.Errorf("%v: the script tried to install:\n%s", args, out)
		}
	}
}
