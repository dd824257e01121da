package krewmanifest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// hostArchive returns the archive and release for this machine's platform: from dist/ when
// hack/dist.sh built it there, otherwise built now by hack/dist.sh into a temporary
// directory (not under -short).
func hostArchive(t *testing.T) (string, Release) {
	t.Helper()
	env := OSArch{runtime.GOOS, runtime.GOARCH}
	for _, dir := range []string{distDir(), ""} {
		if dir == "" {
			if testing.Short() {
				t.Skipf("no %s archive in %s and -short: not building one", env, distDir())
			}
			dir = t.TempDir()
			cmd := exec.Command(filepath.Join(repoRoot, "hack", "dist.sh"))
			cmd.Env = append(os.Environ(), "PLATFORMS="+env.String(), "DIST_DIR="+dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hack/dist.sh for %s: %v\n%s", env, err, out)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "BUILDINFO")); err != nil {
			continue
		}
		rel, err := ReadRelease(dir)
		if err != nil {
			t.Fatal(err)
		}
		if name := archiveName(rel.Version, env); rel.Checksums[name] != "" {
			return filepath.Join(dir, name), rel
		}
	}
	t.Fatalf("hack/dist.sh wrote no archive for %s", env)
	return "", Release{}
}

// TestInstallThroughKubectl installs this platform's archive as krew would (check the
// sha256, unpack, apply `files`, link `bin` as kubectl-ctrldiag into a bin directory) and
// runs the plugin through kubectl with only that directory and kubectl's on PATH.
func TestInstallThroughKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not on PATH")
	}
	kubectl, err = filepath.EvalSymlinks(kubectl)
	if err != nil {
		t.Fatal(err)
	}
	archive, rel := hostArchive(t)
	_, p, _ := readCommitted(t)
	pl, ok := MatchingPlatform(p, OSArch{runtime.GOOS, runtime.GOARCH})
	if !ok {
		t.Fatalf("%s offers no platform for %s/%s", renderedFile, runtime.GOOS, runtime.GOARCH)
	}
	pl.Sha256 = rel.Checksums[filepath.Base(archive)] // the archive may be newer than the release

	krewRoot := t.TempDir()
	installDir := filepath.Join(krewRoot, "store", p.Name, rel.Version)
	bin, err := Install(archive, pl, installDir)
	if err != nil {
		t.Fatal(err)
	}
	binDir := filepath.Join(krewRoot, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(binDir, "kubectl-"+strings.ReplaceAll(p.Name, "-", "_"))
	if runtime.GOOS == "windows" {
		link += ".exe"
	}
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}

	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(kubectl, args...)
		cmd.Env = []string{
			"PATH=" + binDir + string(os.PathListSeparator) + filepath.Dir(kubectl),
			"HOME=" + krewRoot,
			"KUBECONFIG=" + filepath.Join(krewRoot, "no-kubeconfig"),
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("kubectl %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}

	out, errOut := run("plugin", "list")
	if !strings.Contains(out, link) {
		t.Errorf("kubectl plugin list does not show %s:\n%s", link, out)
	}
	if all := out + errOut; strings.Contains(strings.ToLower(all), "warning") {
		t.Errorf("kubectl plugin list warns:\n%s", all)
	}

	bi, err := ReadBuildInfo(filepath.Join(filepath.Dir(archive), "BUILDINFO"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = run("ctrldiag", "version")
	want := "kubectl-ctrldiag " + rel.Version + " (commit " + rel.Commit + ", built " + bi["buildDate"] + ","
	if !strings.HasPrefix(out, want) {
		t.Errorf("kubectl ctrldiag version printed %q, want it to start with %q", out, want)
	}
	out, _ = run("ctrldiag", "version", "-o", "json")
	var info struct{ Version, Commit, BuildDate, Platform string }
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("kubectl ctrldiag version -o json: %v\n%s", err, out)
	}
	if info.Version != rel.Version || info.Commit != rel.Commit || info.BuildDate != bi["buildDate"] ||
		info.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("version -o json = %+v, want %s %s %s %s/%s", info, rel.Version, rel.Commit, bi["buildDate"], runtime.GOOS, runtime.GOARCH)
	}

	// Completion: krew links only the plugin, so the README has krew users copy
	// kubectl_complete-ctrldiag from beside its link's target into krew's bin directory.
	if runtime.GOOS != "windows" {
		target, err := os.Readlink(link)
		if err != nil {
			t.Fatal(err)
		}
		hook, err := os.ReadFile(filepath.Join(filepath.Dir(target), "kubectl_complete-ctrldiag"))
		if err != nil {
			t.Fatalf("the installation has no completion hook: %v", err)
		}
		if err := os.WriteFile(filepath.Join(binDir, "kubectl_complete-ctrldiag"), hook, 0o755); err != nil {
			t.Fatal(err)
		}
		out, _ = run("__complete", "ctrldiag", "queues", "-o", "y")
		if want := "yaml\n:4\n"; out != want {
			t.Errorf("kubectl __complete ctrldiag queues -o y printed %q, want %q", out, want)
		}
	}

	// krew links only the plugin: `kubectl ctrldiag operator ...` reaches kubectl-ctrldiag,
	// which must find kubectl-ctrldiag-operator beside its link's target in krew's store.
	out, _ = run("ctrldiag", "operator", "version")
	wantOperator := strings.Replace(want, "kubectl-ctrldiag ", "kubectl-ctrldiag-operator ", 1)
	if !strings.HasPrefix(out, wantOperator) {
		t.Errorf("kubectl ctrldiag operator version printed %q, want it to start with %q", out, wantOperator)
	}
	out, _ = run("ctrldiag", "operator", "--help")
	for _, sub := range []string{"kubectl ctrldiag operator [command]", "install", "run", "uninstall"} {
		if !strings.Contains(out, sub) {
			t.Errorf("kubectl ctrldiag operator --help does not show %q:\n%s", sub, out)
		}
	}
}

// writeTarGz writes a test archive; a name ending in "*" is stored executable.
func writeTarGz(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		mode := int64(0o644)
		if strings.HasSuffix(name, "*") {
			name, mode = strings.TrimSuffix(name, "*"), 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "kubectl-ctrldiag_v0.1.0_linux_amd64.tar.gz")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestInstall(t *testing.T) {
	release := map[string]string{"kubectl-ctrldiag*": "#!/bin/sh\n", "LICENSE": "Apache"}
	direct := []FileOperation{{From: "kubectl-ctrldiag", To: "."}, {From: "LICENSE", To: "."}}
	tests := []struct {
		name    string
		files   map[string]string
		ops     []FileOperation
		bin     string
		badSum  bool
		wantErr string // "" means the install must succeed
	}{
		{name: "release layout", files: release, ops: direct, bin: "kubectl-ctrldiag"},
		{name: "files left out installs everything", files: release, ops: nil, bin: "kubectl-ctrldiag"},
		{name: "glob from a directory", ops: []FileOperation{{From: "pkg/*", To: "."}}, bin: "kubectl-ctrldiag",
			files: map[string]string{"pkg/kubectl-ctrldiag*": "x", "pkg/LICENSE": "x"}},
		{name: "direct move renames", ops: []FileOperation{{From: "build/ctrldiag", To: "bin/kubectl-ctrldiag"}, {From: "LICENSE", To: "."}},
			bin: "bin/kubectl-ctrldiag", files: map[string]string{"build/ctrldiag*": "x", "LICENSE": "x"}},
		{name: "wrong sha256", files: release, ops: direct, bin: "kubectl-ctrldiag", badSum: true,
			wantErr: "the manifest says"},
		{name: "from matches nothing", ops: direct, bin: "kubectl-ctrldiag",
			files:   map[string]string{"dist/kubectl-ctrldiag*": "x", "LICENSE": "x"},
			wantErr: `no files in the archive matched "kubectl-ctrldiag"`},
		{name: "bin not installed", files: release, ops: direct, bin: "kubectl-ctrldiag.exe",
			wantErr: `bin "kubectl-ctrldiag.exe" is not in the installation`},
		{name: "bin not executable", ops: direct, bin: "kubectl-ctrldiag",
			files: map[string]string{"kubectl-ctrldiag": "x", "LICENSE": "x"}, wantErr: "not an executable"},
		{name: "license not installed", ops: []FileOperation{{From: "kubectl-ctrldiag", To: "."}}, bin: "kubectl-ctrldiag",
			files: release, wantErr: "no LICENSE"},
		{name: "entry escaping the archive", ops: nil, bin: "kubectl-ctrldiag",
			files: map[string]string{"../kubectl-ctrldiag*": "x"}, wantErr: "leaves the extraction directory"},
		{name: "bin escaping the installation", files: release, ops: direct, bin: "../kubectl-ctrldiag",
			wantErr: "outside the installation directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			archive := writeTarGz(t, tc.files)
			sum, err := FileSHA256(archive)
			if err != nil {
				t.Fatal(err)
			}
			if tc.badSum {
				sum = strings.Repeat("0", 64)
			}
			pl := Platform{Sha256: sum, Files: tc.ops, Bin: tc.bin}
			bin, err := Install(archive, pl, filepath.Join(t.TempDir(), "install"))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("install failed: %v", err)
			case tc.wantErr == "" && filepath.Base(bin) != filepath.Base(tc.bin):
				t.Fatalf("bin = %s, want %s", bin, tc.bin)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("install succeeded, want an error containing %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}
