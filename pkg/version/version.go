// Package version holds the build information stamped into the binary with -ldflags (see the
// Makefile). A plain `go build` or `go install` stamps nothing: then the Go build info says
// what it can (the module's version, the VCS revision, its time and whether the tree was
// modified), and "unknown" stands for the rest.
package version

import (
	"runtime"
	"runtime/debug"
)

// Stamped by the Makefile: -X github.com/ctrldiag/kubectl-ctrldiag/pkg/version.version=v0.1.0 ...
var (
	version   = ""
	commit    = ""
	buildDate = ""
)

// readBuildInfo reads the Go build info embedded in the running binary (a variable for tests).
var readBuildInfo = debug.ReadBuildInfo

// Info describes one build of kubectl-ctrldiag.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	BuildDate string `json:"buildDate"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// Get returns the stamped build information, filling what -ldflags left empty from the Go
// build info and finally with "unknown".
func Get() Info {
	i := Info{Version: version, Commit: commit, BuildDate: buildDate,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := readBuildInfo(); ok && bi != nil {
		i = fromBuildInfo(i, bi)
	}
	for _, p := range []*string{&i.Version, &i.Commit, &i.BuildDate} {
		if *p == "" {
			*p = "unknown"
		}
	}
	return i
}

// fromBuildInfo fills the empty fields of i from bi: the main module's version (not
// "(devel)", what a build in a checkout says without a VCS), vcs.revision with "-dirty" when
// vcs.modified says the tree had changes (as hack/dist.sh stamps such a build), and vcs.time.
func fromBuildInfo(i Info, bi *debug.BuildInfo) Info {
	if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		i.Version = bi.Main.Version
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	if i.Commit == "" && vcs["vcs.revision"] != "" {
		i.Commit = vcs["vcs.revision"]
		if vcs["vcs.modified"] == "true" {
			i.Commit += "-dirty"
		}
	}
	if i.BuildDate == "" {
		i.BuildDate = vcs["vcs.time"]
	}
	return i
}
