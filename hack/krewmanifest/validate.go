package krewmanifest

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/blang/semver/v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Limits krew-index asks of a manifest's text.
const (
	MaxShortDescription = 50
	MaxLineWidth        = 80
)

// OSArch is one platform krew runs on.
type OSArch struct{ OS, Arch string }

func (p OSArch) String() string { return p.OS + "/" + p.Arch }

// SupportedPlatforms are the os/arch pairs krew's validate-krew-manifest checks selectors
// against.
var SupportedPlatforms = []OSArch{
	{"windows", "386"}, {"windows", "amd64"}, {"windows", "arm64"},
	{"linux", "386"}, {"linux", "amd64"}, {"linux", "arm"}, {"linux", "arm64"}, {"linux", "ppc64le"},
	{"darwin", "386"}, {"darwin", "amd64"}, {"darwin", "arm64"},
}

var (
	safePluginName = regexp.MustCompile(`^[\w-]+$`)
	validSHA256    = regexp.MustCompile(`^[a-f0-9]{64}$`)
	// Names Windows reserves for devices: a plugin cannot be called that.
	windowsForbidden = []string{"CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4",
		"COM5", "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6",
		"LPT7", "LPT8", "LPT9"}
)

// Validate checks p, read from the file <name>.yaml, with krew's structural rules
// (ValidatePlugin), the platform rules of validate-krew-manifest (every selector matches a
// supported os/arch, no os/arch is matched twice) and krew-index's guidelines (short
// description length, https URIs, text wrapped at 80 columns, .exe on windows). It
// reports every problem found, not only the first.
func Validate(name string, p Plugin) error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if p.APIVersion != APIVersion {
		add("apiVersion is %q, krew supports only %q", p.APIVersion, APIVersion)
	}
	if p.Kind != Kind {
		add("kind is %q, krew supports only %q", p.Kind, Kind)
	}
	if !IsSafePluginName(name) {
		add("the plugin name %q (the manifest's file name) is not allowed, it must match %s and not be a Windows device name", name, safePluginName)
	}
	if p.Name != name {
		add("metadata.name is %q but the file name says the plugin is %q", p.Name, name)
	}
	switch n := len(p.Spec.ShortDescription); {
	case n == 0:
		add("spec.shortDescription is empty")
	case n > MaxShortDescription:
		add("spec.shortDescription is %d characters, krew-index allows %d", n, MaxShortDescription)
	}
	if strings.TrimSpace(p.Spec.Description) == "" {
		add("spec.description is empty")
	}
	for _, f := range []struct{ field, text string }{{"spec.description", p.Spec.Description}, {"spec.caveats", p.Spec.Caveats}} {
		for i, line := range strings.Split(f.text, "\n") {
			if w := len([]rune(line)); w > MaxLineWidth {
				add("%s line %d is %d columns wide, wrap it at %d", f.field, i+1, w, MaxLineWidth)
			}
		}
	}
	if err := requireHTTPS(p.Spec.Homepage); err != nil {
		add("spec.homepage: %v", err)
	}
	if p.Spec.Version == "" {
		add("spec.version is empty")
	} else if err := ParseVersion(p.Spec.Version); err != nil {
		add("spec.version: %v", err)
	}
	if len(p.Spec.Platforms) == 0 {
		add("spec.platforms is empty")
	}
	for i, pl := range p.Spec.Platforms {
		for _, err := range validatePlatform(pl) {
			add("spec.platforms[%d] (%s): %v", i, selectorString(pl.Selector), err)
		}
	}
	for _, env := range SupportedPlatforms {
		var matched []int
		for i, pl := range p.Spec.Platforms {
			if selectorMatches(pl.Selector, env) {
				matched = append(matched, i)
			}
		}
		if len(matched) > 1 {
			add("spec.platforms %v have overlapping selectors that all select %s", matched, env)
		}
	}
	return errors.Join(errs...)
}

// IsSafePluginName reports whether krew accepts name as a plugin name.
func IsSafePluginName(name string) bool {
	if !safePluginName.MatchString(name) {
		return false
	}
	for _, f := range windowsForbidden {
		if strings.EqualFold(f, name) {
			return false
		}
	}
	return true
}

// ParseVersion checks a plugin version the way krew does: a "v" then a semantic version.
func ParseVersion(v string) error {
	if !strings.HasPrefix(v, "v") {
		return fmt.Errorf("version %q does not start with \"v\"", v)
	}
	if _, err := semver.Parse(v[1:]); err != nil {
		return fmt.Errorf("version %q is not a semantic version: %w", v, err)
	}
	return nil
}

func validatePlatform(pl Platform) []error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if pl.URI == "" {
		add("uri is empty")
	} else if err := requireHTTPS(pl.URI); err != nil {
		add("uri: %v", err)
	}
	if pl.Sha256 == "" {
		add("sha256 is empty")
	} else if !validSHA256.MatchString(pl.Sha256) {
		add("sha256 %q is not 64 lowercase hex digits", pl.Sha256)
	}
	if pl.Bin == "" {
		add("bin is empty")
	} else if path.IsAbs(pl.Bin) || path.Clean(pl.Bin) != pl.Bin || strings.HasPrefix(pl.Bin, "../") {
		add("bin %q must be a clean path inside the installation directory", pl.Bin)
	}
	if pl.Files != nil && len(pl.Files) == 0 {
		add("files must be left out or be non-empty")
	}
	for j, op := range pl.Files {
		switch {
		case op.From == "":
			add("files[%d].from is empty", j)
		case op.To == "":
			add("files[%d].to is empty", j)
		case path.Clean(op.To) != op.To:
			add("files[%d].to %q is not a clean path, krew wants %q", j, op.To, path.Clean(op.To))
		}
	}
	for _, err := range validateSelector(pl.Selector) {
		add("selector: %v", err)
	}
	if pl.Selector != nil {
		var envs []OSArch
		for _, env := range SupportedPlatforms {
			if selectorMatches(pl.Selector, env) {
				envs = append(envs, env)
			}
		}
		if len(envs) == 0 {
			add("selector matches no platform krew supports")
		}
		for _, env := range envs {
			if env.OS == "windows" && !strings.HasSuffix(pl.Bin, ".exe") {
				add("bin %q is for %s and must end in .exe", pl.Bin, env)
				break
			}
		}
	}
	return errs
}

func validateSelector(sel *metav1.LabelSelector) []error {
	if sel == nil {
		return []error{errors.New("a nil selector is not supported")}
	}
	if sel.MatchLabels == nil && len(sel.MatchExpressions) == 0 {
		return []error{errors.New("an empty selector is not supported")}
	}
	var errs []error
	for k := range sel.MatchLabels {
		if k != "os" && k != "arch" {
			errs = append(errs, fmt.Errorf("key %q is not supported, only os and arch", k))
		}
	}
	for _, e := range sel.MatchExpressions {
		if e.Key != "os" && e.Key != "arch" {
			errs = append(errs, fmt.Errorf("key %q is not supported, only os and arch", e.Key))
		}
	}
	if sel.MatchLabels != nil && len(sel.MatchLabels) == 0 {
		errs = append(errs, errors.New("matchLabels is given but empty"))
	}
	if sel.MatchExpressions != nil && len(sel.MatchExpressions) == 0 {
		errs = append(errs, errors.New("matchExpressions is given but empty"))
	}
	if _, err := metav1.LabelSelectorAsSelector(sel); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// selectorMatches reports whether sel selects env; an invalid selector selects nothing.
func selectorMatches(sel *metav1.LabelSelector, env OSArch) bool {
	if sel == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false
	}
	return s.Matches(labels.Set{"os": env.OS, "arch": env.Arch})
}

func selectorString(sel *metav1.LabelSelector) string {
	if sel == nil {
		return "no selector"
	}
	return metav1.FormatLabelSelector(sel)
}

func requireHTTPS(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("%q is not an https URL", raw)
	}
	return nil
}

// MatchingPlatform returns the platform whose selector selects env, as krew picks the one
// to install.
func MatchingPlatform(p Plugin, env OSArch) (Platform, bool) {
	for _, pl := range p.Spec.Platforms {
		if selectorMatches(pl.Selector, env) {
			return pl, true
		}
	}
	return Platform{}, false
}
