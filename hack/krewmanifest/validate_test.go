package krewmanifest

import (
	"os"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fakeRelease has a made-up sha256 for each archive the template names.
func fakeRelease(version string) Release {
	r := Release{Version: version, Commit: "0123456789abcdef0123456789abcdef01234567", Checksums: map[string]string{}}
	for i, env := range releasePlatforms {
		r.Checksums[archiveName(version, env)] = strings.Repeat(string("abcdef"[i]), 64)
	}
	return r
}

// validPlugin renders the real template with fake checksums.
func validPlugin(t *testing.T) Plugin {
	t.Helper()
	tmpl, err := os.ReadFile(templateFile)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(tmpl, fakeRelease("v0.1.0"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestValidateTemplateRendering(t *testing.T) {
	if err := Validate("ctrldiag", validPlugin(t)); err != nil {
		t.Fatalf("the rendered template is not valid:\n%v", err)
	}
}

func TestValidateReportsProblems(t *testing.T) {
	linux := func(p *Plugin) *Platform { return &p.Spec.Platforms[0] }
	windows := func(p *Plugin) *Platform {
		for i := range p.Spec.Platforms {
			if p.Spec.Platforms[i].Selector.MatchLabels["os"] == "windows" {
				return &p.Spec.Platforms[i]
			}
		}
		panic("the template has no windows platform")
	}
	tests := []struct {
		name    string
		file    string // the manifest's file name without .yaml; "ctrldiag" when empty
		mutate  func(p *Plugin)
		wantErr string
	}{
		{name: "file name differs", file: "ctrl-diag", wantErr: `metadata.name is "ctrldiag" but the file name says the plugin is "ctrl-diag"`},
		{name: "unsafe name", file: "ctrl.diag", mutate: func(p *Plugin) { p.Name = "ctrl.diag" }, wantErr: "is not allowed"},
		{name: "windows device name", file: "con", mutate: func(p *Plugin) { p.Name = "con" }, wantErr: "is not allowed"},
		{name: "old apiVersion", mutate: func(p *Plugin) { p.APIVersion = "krew.googlecontainertools.github.com/v1alpha1" }, wantErr: "apiVersion"},
		{name: "kind", mutate: func(p *Plugin) { p.Kind = "Plugins" }, wantErr: "kind"},
		{name: "short description too long", mutate: func(p *Plugin) { p.Spec.ShortDescription = strings.Repeat("x", 51) },
			wantErr: "spec.shortDescription is 51 characters"},
		{name: "no short description", mutate: func(p *Plugin) { p.Spec.ShortDescription = "" }, wantErr: "spec.shortDescription is empty"},
		{name: "description not wrapped", mutate: func(p *Plugin) { p.Spec.Description += strings.Repeat("y", 81) },
			wantErr: "spec.description line"},
		{name: "caveats not wrapped", mutate: func(p *Plugin) { p.Spec.Caveats = strings.Repeat("z", 81) }, wantErr: "spec.caveats line 1 is 81 columns"},
		{name: "version without v", mutate: func(p *Plugin) { p.Spec.Version = "0.1.0" }, wantErr: `does not start with "v"`},
		{name: "version not semver", mutate: func(p *Plugin) { p.Spec.Version = "v0.1" }, wantErr: "not a semantic version"},
		{name: "no platforms", mutate: func(p *Plugin) { p.Spec.Platforms = nil }, wantErr: "spec.platforms is empty"},
		{name: "uppercase sha256", mutate: func(p *Plugin) { linux(p).Sha256 = strings.ToUpper(linux(p).Sha256) },
			wantErr: "not 64 lowercase hex digits"},
		{name: "short sha256", mutate: func(p *Plugin) { linux(p).Sha256 = "abc" }, wantErr: "not 64 lowercase hex digits"},
		{name: "http uri", mutate: func(p *Plugin) { linux(p).URI = strings.Replace(linux(p).URI, "https:", "http:", 1) },
			wantErr: "is not an https URL"},
		{name: "no bin", mutate: func(p *Plugin) { linux(p).Bin = "" }, wantErr: "bin is empty"},
		{name: "empty files", mutate: func(p *Plugin) { linux(p).Files = []FileOperation{} }, wantErr: "files must be left out or be non-empty"},
		{name: "unclean to", mutate: func(p *Plugin) { linux(p).Files[0].To = "./" }, wantErr: "is not a clean path"},
		{name: "nil selector", mutate: func(p *Plugin) { linux(p).Selector = nil }, wantErr: "a nil selector is not supported"},
		{name: "empty selector", mutate: func(p *Plugin) { linux(p).Selector = &metav1.LabelSelector{} }, wantErr: "an empty selector is not supported"},
		{name: "unsupported selector key", mutate: func(p *Plugin) { linux(p).Selector.MatchLabels["distro"] = "debian" },
			wantErr: `key "distro" is not supported`},
		{name: "selector matching nothing", mutate: func(p *Plugin) { linux(p).Selector.MatchLabels["os"] = "plan9" },
			wantErr: "matches no platform krew supports"},
		{name: "overlapping selectors", mutate: func(p *Plugin) {
			linux(p).Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"os": "linux"}}
		}, wantErr: "overlapping selectors that all select linux/arm64"},
		{name: "windows bin without .exe", mutate: func(p *Plugin) { windows(p).Bin = "kubectl-ctrldiag" },
			wantErr: `bin "kubectl-ctrldiag" is for windows/amd64 and must end in .exe`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := validPlugin(t)
			if tc.mutate != nil {
				tc.mutate(&p)
			}
			file := tc.file
			if file == "" {
				file = "ctrldiag"
			}
			err := Validate(file, p)
			if err == nil {
				t.Fatalf("valid, want an error containing %q", tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error does not contain %q:\n%v", tc.wantErr, err)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	p := validPlugin(t)
	p.Kind = "Plugins"
	p.Spec.Version = "latest"
	p.Spec.Platforms[1].Sha256 = "nope"
	err := Validate("ctrldiag", p)
	if err == nil {
		t.Fatal("valid, want three problems")
	}
	for _, want := range []string{"kind", "spec.version", "spec.platforms[1] (arch=arm64,os=linux): sha256"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

func TestParseIsStrict(t *testing.T) {
	_, err := Parse([]byte("apiVersion: " + APIVersion + "\nkind: Plugin\nspec:\n  verison: v0.1.0\n"))
	if err == nil || !strings.Contains(err.Error(), "verison") {
		t.Fatalf("a misspelt field must be an error, got %v", err)
	}
}
