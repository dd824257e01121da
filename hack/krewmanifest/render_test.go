package krewmanifest

import (
	"os"
	"strings"
	"testing"
)

func TestRenderRoundTrip(t *testing.T) {
	tmpl, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	want := fakeRelease("v1.2.3-rc.1")
	out, err := Render(tmpl, want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReleaseOf(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != want.Version || got.Commit != want.Commit || len(got.Checksums) != len(want.Checksums) {
		t.Fatalf("ReleaseOf(Render(r)) = %+v, want %+v", got, want)
	}
	for name, sum := range want.Checksums {
		if got.Checksums[name] != sum {
			t.Errorf("%s: sha256 %s, want %s", name, got.Checksums[name], sum)
		}
	}
	p, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Spec.Version != "v1.2.3-rc.1" {
		t.Errorf("spec.version = %s", p.Spec.Version)
	}
}

func TestRenderErrors(t *testing.T) {
	tmpl, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	missing := fakeRelease("v0.1.0")
	delete(missing.Checksums, "kubectl-ctrldiag_v0.1.0_darwin_arm64.tar.gz")
	extra := fakeRelease("v0.1.0")
	extra.Checksums["kubectl-ctrldiag_v0.1.0_linux_riscv64.tar.gz"] = strings.Repeat("0", 64)
	badVersion := fakeRelease("0.1.0")
	noCommit := fakeRelease("v0.1.0")
	noCommit.Commit = ""
	for name, tc := range map[string]struct {
		r       Release
		wantErr string
	}{
		"archive missing":         {missing, "no checksum for kubectl-ctrldiag_v0.1.0_darwin_arm64.tar.gz"},
		"archive not in template": {extra, "no platform for kubectl-ctrldiag_v0.1.0_linux_riscv64.tar.gz"},
		"version without v":       {badVersion, `does not start with "v"`},
		"no commit":               {noCommit, "is not a commit id"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Render(tmpl, tc.r)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestParseChecksums(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	got, err := ParseChecksums(strings.NewReader(a + "  x.tar.gz\n" + b + " *y.tar.gz\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got["x.tar.gz"] != a || got["y.tar.gz"] != b || len(got) != 2 {
		t.Fatalf("got %v", got)
	}
	for _, bad := range []string{"abc  x.tar.gz\n", a + "\n", a + "  x\n" + a + "  x\n", strings.ToUpper(a) + "  x\n"} {
		if _, err := ParseChecksums(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseChecksums(%q) succeeded, want an error", bad)
		}
	}
}

func TestReleaseOfNeedsHeader(t *testing.T) {
	if _, err := ReleaseOf([]byte("apiVersion: " + APIVersion + "\n")); err == nil || !strings.Contains(err.Error(), "header") {
		t.Fatalf("err = %v, want one about the missing header", err)
	}
}
