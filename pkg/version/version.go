// Package version holds the build information stamped into the binary with -ldflags
// (see the Makefile) and falls back to "unknown" values for plain `go build`.
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

// Info describes one build of kubectl-ctrldiag.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	BuildDate string `json:"buildDate"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// Get returns the stamped build information, filling gaps from the Go build info
// (module version, vcs revision) and finally with "unknown".
func Get() Info {
	i := Info{Version: version, Commit: commit, BuildDate: buildDate,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && i.Commit == "":
				i.Commit = s.Value
			case s.Key == "vcs.time" && i.BuildDate == "":
				i.BuildDate = s.Value
			}
		}
	}
	for _, p := range []*string{&i.Version, &i.Commit, &i.BuildDate} {
		if *p == "" {
			*p = "unknown"
		}
	}
	return i
}
