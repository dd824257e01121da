package version

import (
	"runtime/debug"
	"testing"
)

// fakeBuildInfo makes Get read bi (ok false: the binary has no build info) for one test.
func fakeBuildInfo(t *testing.T, bi *debug.BuildInfo, ok bool) {
	t.Helper()
	saved := readBuildInfo
	readBuildInfo = func() (*debug.BuildInfo, bool) { return bi, ok }
	t.Cleanup(func() { readBuildInfo = saved })
}

// stamp sets what -ldflags would have set, for one test.
func stamp(t *testing.T, v, c, d string) {
	t.Helper()
	sv, sc, sd := version, commit, buildDate
	version, commit, buildDate = v, c, d
	t.Cleanup(func() { version, commit, buildDate = sv, sc, sd })
}

func vcsInfo(mainVersion string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/ctrldiag/kubectl-ctrldiag", Version: mainVersion}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestGetFallsBackToBuildInfo(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name                   string
		stamped                [3]string
		bi                     *debug.BuildInfo
		ok                     bool
		version, commit, built string
	}{
		{name: "go build in a clean checkout", ok: true,
			bi:      vcsInfo("(devel)", "vcs", "git", "vcs.revision", rev, "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "false"),
			version: "unknown", commit: rev, built: "2026-01-02T03:04:05Z"},
		{name: "go build with changes", ok: true,
			bi:      vcsInfo("v0.1.1-0.20260102030405-0123456789ab+dirty", "vcs.revision", rev, "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "true"),
			version: "v0.1.1-0.20260102030405-0123456789ab+dirty", commit: rev + "-dirty", built: "2026-01-02T03:04:05Z"},
		{name: "go install module@version", ok: true, bi: vcsInfo("v0.1.0"),
			version: "v0.1.0", commit: "unknown", built: "unknown"},
		{name: "stamped by the Makefile wins", ok: true, stamped: [3]string{"v0.2.0", "feedface", "2026-02-02T00:00:00Z"},
			bi:      vcsInfo("v0.1.0", "vcs.revision", rev, "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "true"),
			version: "v0.2.0", commit: "feedface", built: "2026-02-02T00:00:00Z"},
		{name: "no build info", ok: false, version: "unknown", commit: "unknown", built: "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stamp(t, tc.stamped[0], tc.stamped[1], tc.stamped[2])
			fakeBuildInfo(t, tc.bi, tc.ok)
			got := Get()
			if got.Version != tc.version || got.Commit != tc.commit || got.BuildDate != tc.built {
				t.Errorf("Get() = version %q commit %q built %q, want %q %q %q",
					got.Version, got.Commit, got.BuildDate, tc.version, tc.commit, tc.built)
			}
			if got.GoVersion == "" || got.Platform == "" {
				t.Errorf("Get() = %+v: Go version and platform missing", got)
			}
		})
	}
}
