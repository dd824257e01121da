package krewmanifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The files under test, relative to this package.
var (
	repoRoot     = filepath.Join("..", "..")
	templateFile = filepath.Join(repoRoot, "krew-manifest.yaml")
	renderedFile = filepath.Join(repoRoot, "plugins", "ctrldiag.yaml")
)

// distDir is where hack/dist.sh wrote the archives: $KREW_DIST_DIR or dist/.
func distDir() string {
	if d := os.Getenv("KREW_DIST_DIR"); d != "" {
		return d
	}
	return filepath.Join(repoRoot, "dist")
}

// releasePlatforms are the platforms hack/dist.sh builds; the manifest offers exactly these.
var releasePlatforms = []OSArch{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"},
	{"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"},
}

func archiveName(version string, env OSArch) string {
	return fmt.Sprintf("kubectl-ctrldiag_%s_%s_%s.tar.gz", version, env.OS, env.Arch)
}

func readCommitted(t *testing.T) ([]byte, Plugin, Release) {
	t.Helper()
	data, err := os.ReadFile(renderedFile)
	if err != nil {
		t.Fatalf("the krew custom index needs %s: %v (run make dist krew-manifest)", renderedFile, err)
	}
	p, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := ReleaseOf(data)
	if err != nil {
		t.Fatalf("%s: %v", renderedFile, err)
	}
	return data, p, rel
}

func TestCommittedManifestIsValid(t *testing.T) {
	_, p, rel := readCommitted(t)
	name := strings.TrimSuffix(filepath.Base(renderedFile), ".yaml")
	if err := Validate(name, p); err != nil {
		t.Fatalf("%s is not a valid krew manifest:\n%v", renderedFile, err)
	}
	if p.Spec.Version != rel.Version {
		t.Errorf("spec.version %s differs from the header's release %s", p.Spec.Version, rel.Version)
	}
	if want := "https://github.com/ctrldiag/kubectl-ctrldiag"; p.Spec.Homepage != want {
		t.Errorf("homepage = %q, want %q", p.Spec.Homepage, want)
	}
	if len(p.Spec.Platforms) != len(releasePlatforms) {
		t.Errorf("%d platforms, want one for each of %v", len(p.Spec.Platforms), releasePlatforms)
	}
	for _, env := range releasePlatforms {
		pl, ok := MatchingPlatform(p, env)
		if !ok {
			t.Errorf("no platform for %s", env)
			continue
		}
		want := "https://github.com/ctrldiag/kubectl-ctrldiag/releases/download/" + p.Spec.Version + "/" + archiveName(p.Spec.Version, env)
		if pl.URI != want {
			t.Errorf("%s: uri = %s, want %s", env, pl.URI, want)
		}
		bin := "kubectl-ctrldiag"
		if env.OS == "windows" {
			bin += ".exe"
		}
		if pl.Bin != bin {
			t.Errorf("%s: bin = %q, want %q", env, pl.Bin, bin)
		}
		// kubectl's completion hook is installed beside the plugin, for the README's step that
		// puts it on PATH.
		hook := "kubectl_complete-ctrldiag"
		if env.OS == "windows" {
			hook += ".cmd"
		}
		if !slices.ContainsFunc(pl.Files, func(op FileOperation) bool { return op.From == hook && op.To == "." }) {
			t.Errorf("%s: files do not install %s: %+v", env, hook, pl.Files)
		}
	}
}

// TestTemplateRendersCommittedManifest keeps krew-manifest.yaml and plugins/ctrldiag.yaml
// from drifting: the template, rendered for the release the committed file names (its
// version, commit and sha256s), must give the committed file byte for byte.
func TestTemplateRendersCommittedManifest(t *testing.T) {
	committed, _, rel := readCommitted(t)
	tmpl, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Render(tmpl, rel)
	if err != nil {
		t.Fatalf("rendering %s: %v", templateFile, err)
	}
	if d := firstDiff(committed, got); d != "" {
		t.Fatalf("%s no longer renders to %s (run make krew-manifest and commit it): %s", templateFile, renderedFile, d)
	}
}

// releaseCheck is set (KREW_RELEASE_CHECK=1) when the archives in dist/ are the release:
// then dist/ must exist and the committed manifest must describe exactly these archives,
// instead of the comparison being skipped when dist/ was built from another commit.
var releaseCheck = os.Getenv("KREW_RELEASE_CHECK") == "1"

// TestDistMatchesCommittedManifest checks the archives of dist/ against the committed
// manifest: when dist/ was built from the release the manifest names, the sha256s must
// match and rendering must reproduce the file exactly; in every case each archive must
// install with its platform's files and bin, LICENSE included.
func TestDistMatchesCommittedManifest(t *testing.T) {
	dist := distDir()
	if _, err := os.Stat(filepath.Join(dist, "BUILDINFO")); err != nil {
		if releaseCheck {
			t.Fatalf("KREW_RELEASE_CHECK=1 but there are no archives in %s (run make dist)", dist)
		}
		t.Skipf("no archives in %s (run make dist to check them)", dist)
	}
	distRel, err := ReadRelease(dist)
	if err != nil {
		t.Fatal(err)
	}
	committed, p, rel := readCommitted(t)

	for name, sum := range distRel.Checksums {
		got, err := FileSHA256(filepath.Join(dist, name))
		if err != nil {
			t.Fatalf("checksums.txt lists %s: %v", name, err)
		}
		if got != sum {
			t.Errorf("%s: sha256 %s, checksums.txt says %s", name, got, sum)
		}
	}

	t.Run("layout", func(t *testing.T) {
		for _, env := range releasePlatforms {
			name := archiveName(distRel.Version, env)
			sum, ok := distRel.Checksums[name]
			if !ok {
				t.Errorf("%s: no %s in %s", env, name, dist)
				continue
			}
			pl, _ := MatchingPlatform(p, env)
			pl.Sha256 = sum // the layout is checked here, the sha256 below
			if _, err := Install(filepath.Join(dist, name), pl, t.TempDir()); err != nil {
				t.Errorf("%s: %v", env, err)
			}
		}
	})

	t.Run("sha256", func(t *testing.T) {
		if distRel.Version != rel.Version || distRel.Commit != rel.Commit {
			if releaseCheck {
				t.Fatalf("%s holds %s at commit %s but %s describes %s at commit %s: run make krew-manifest and commit %[4]s",
					dist, distRel.Version, distRel.Commit, renderedFile, rel.Version, rel.Commit)
			}
			t.Skipf("%s holds %s at commit %s, %s describes %s at commit %s: nothing to compare (make dist krew-manifest renders the manifest for the build)",
				dist, distRel.Version, distRel.Commit, renderedFile, rel.Version, rel.Commit)
		}
		for _, pl := range p.Spec.Platforms {
			if _, err := Install(filepath.Join(dist, filepath.Base(pl.URI)), pl, t.TempDir()); err != nil {
				t.Error(err)
			}
		}
		tmpl, err := os.ReadFile(templateFile)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Render(tmpl, distRel)
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDiff(committed, got); d != "" {
			t.Fatalf("rendering for %s differs from %s: %s", dist, renderedFile, d)
		}
	})
}

// firstDiff describes the first line where want and got differ, or returns "".
func firstDiff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d: committed %q, rendered %q", i+1, wl, gl)
		}
	}
	return "the files differ"
}
