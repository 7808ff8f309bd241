package main

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// Set by goreleaser's ldflags (-X main.version=... -X main.commit=...
// -X main.date=...); a plain go build leaves the defaults.
var (
	version = "dev"
	commit  = ""
	date    = ""
)

// versionInfo is what `version` prints; its document is format.VersionDoc.
type versionInfo struct {
	Version   string
	Commit    string
	Date      string
	GoVersion string
	Platform  string
}

// resolveVersion returns the ldflags values, or, for a build without them
// (go install module@version, go build), what the Go toolchain recorded:
// the module version and the VCS revision and time.
func resolveVersion() versionInfo {
	return resolveVersionFrom(version, commit, date, debug.ReadBuildInfo)
}

func resolveVersionFrom(v, c, d string, read func() (*debug.BuildInfo, bool)) versionInfo {
	info := versionInfo{Version: v, Commit: c, Date: d, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := read(); ok {
		info.GoVersion = bi.GoVersion
		// go install ...@v1.2.3 records the module version; a build inside
		// the repository records "(devel)" or a pseudo-version.
		if info.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = cmp.Or(info.Commit, s.Value)
			case "vcs.time":
				info.Date = cmp.Or(info.Date, s.Value)
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && c == "" && info.Commit != "" {
			info.Commit += "-dirty"
		}
	}
	info.Commit, info.Date = cmp.Or(info.Commit, "unknown"), cmp.Or(info.Date, "unknown")
	return info
}

// line is short without the program's name, which cobra prints before it.
func (v versionInfo) line() string {
	return v.Version + " (commit " + v.Commit + ", built " + v.Date + ")"
}

func (v versionInfo) writeText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "Version:    %s\nCommit:     %s\nBuilt:      %s\nGo version: %s\nPlatform:   %s\n",
		v.Version, v.Commit, v.Date, v.GoVersion, v.Platform)
	return err
}

func (a *app) versionCommand() *command {
	return &command{
		name:  "version",
		short: "Print the version, commit and build date",
		long: `Print the version of kstreams-groups, the commit it was built from, the build
date, the Go version and the platform. Release binaries carry the values
goreleaser set; a binary built with go install reports the module version
and the revision the Go toolchain recorded. --version prints the same on
one line.`,
		exits: []int{exitOK, exitUsage},
		example: `  # The version as text
  kstreams-groups version

  # The version as a JSON document, for scripts
  kstreams-groups version -o json

  # The same on one line
  kstreams-groups --version`,
		// version needs no configuration: a broken config file must not
		// keep a user from learning which build they run.
		noConfig: true,
		run: func(cmd *cobra.Command, _ []string) error {
			out, err := a.output(versionDecl, cmd)
			if err != nil {
				return err
			}
			info := resolveVersion()
			if out == format.Text {
				return info.writeText(a.io.Out)
			}
			return format.Encode(a.io.Out, out, format.VersionDoc(info))
		},
	}
}

// versionDecl is version's declaration, for its run to read -o as the
// declaration says.
var versionDecl = &command{name: "version", noConfig: true}
