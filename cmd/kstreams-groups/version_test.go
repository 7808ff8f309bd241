package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func Test_resolveVersionFrom(t *testing.T) {
	t.Parallel()
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name                string
		version, commit, at string
		info                *debug.BuildInfo // nil: no build information
		want                versionInfo
	}{
		{
			name:    "goreleaser ldflags win",
			version: "1.2.3", commit: "0123abc", at: "2026-11-29T12:00:00Z",
			info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v9.9.9"}, Settings: vcs("fff", "2020-01-01T00:00:00Z", "true")},
			want: versionInfo{Version: "1.2.3", Commit: "0123abc", Date: "2026-11-29T12:00:00Z", GoVersion: "go1.26.8"},
		},
		{
			name:    "go install module@version",
			version: "dev",
			info:    &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			want:    versionInfo{Version: "v1.4.0", Commit: "unknown", Date: "unknown", GoVersion: "go1.26.8"},
		},
		{
			name:    "go build in a clone",
			version: "dev",
			info:    &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs("d2a8418", "2026-11-29T12:38:00Z", "false")},
			want:    versionInfo{Version: "dev", Commit: "d2a8418", Date: "2026-11-29T12:38:00Z", GoVersion: "go1.26.8"},
		},
		{
			name:    "go build with local changes",
			version: "dev",
			info:    &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs("d2a8418", "2026-11-29T12:38:00Z", "true")},
			want:    versionInfo{Version: "dev", Commit: "d2a8418-dirty", Date: "2026-11-29T12:38:00Z", GoVersion: "go1.26.8"},
		},
		{
			name:    "no build information",
			version: "dev",
			want:    versionInfo{Version: "dev", Commit: "unknown", Date: "unknown", GoVersion: runtime.Version()},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := resolveVersionFrom(tc.version, tc.commit, tc.at, func() (*debug.BuildInfo, bool) { return tc.info, tc.info != nil })
			tc.want.Platform = runtime.GOOS + "/" + runtime.GOARCH
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	isolate(t)
	info := resolveVersion()

	r := runCLI(t, "--version")
	assert.Equal(t, result{stdout: info.short() + "\n", code: 0}, r)
	assert.Regexp(t, `^kstreams-groups version \S+ \(commit \S+, built \S+\)\n$`, r.stdout)

	r = runCLI(t, "version")
	assert.Equal(t, 0, r.code)
	assert.Equal(t, "Version:    "+info.Version+"\nCommit:     "+info.Commit+"\nBuilt:      "+info.Date+
		"\nGo version: "+info.GoVersion+"\nPlatform:   "+info.Platform+"\n", r.stdout)

	r = runCLI(t, "version", "-o", "json")
	require.Equal(t, 0, r.code)
	var doc map[string]string
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &doc))
	assert.Equal(t, map[string]string{"version": info.Version, "commit": info.Commit, "date": info.Date, "go_version": info.GoVersion, "platform": info.Platform}, doc)

	r = runCLI(t, "version", "-o", "yaml")
	require.Equal(t, 0, r.code)
	var ydoc map[string]string
	require.NoError(t, yaml.Unmarshal([]byte(r.stdout), &ydoc))
	assert.Equal(t, doc, ydoc)

	r = runCLI(t, "version", "-o", "dot")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "-o dot: version prints text, json or yaml; -o dot is printed by describe --topology, overview and render")

	r = runCLI(t, "version", "extra")
	assert.Equal(t, 2, r.code)
}

// A broken configuration must not hide which build is running.
func TestVersion_ignoresABrokenConfigFile(t *testing.T) {
	t.Parallel()
	isolate(t)
	setenv(t, "KSTREAMS_GROUPS_CONFIG", "/nonexistent/config.yaml")
	assert.Equal(t, 0, runCLI(t, "version").code)
	assert.Equal(t, 0, runCLI(t, "--version").code)
}

// -v never means --version: "-v check …" printed the version and exited 0,
// so a monitoring line written that way read OK forever. Before a subcommand
// it is the root's unknown flag, a usage error in that subcommand's
// convention (check: UNKNOWN, 3, with its status line).
func TestVersion_dashVIsNotVersion(t *testing.T) {
	t.Parallel()
	isolate(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
	}{
		{"alone", []string{"-v"}, 2, ""},
		{"before check", []string{"-v", "check", "--group", "G", "--bootstrap-server", "localhost:1"}, 3, "STREAMS UNKNOWN - unknown shorthand flag: 'v' in -v"},
		{"before describe", []string{"-v", "describe", "--group", "G", "--bootstrap-server", "localhost:1"}, 2, ""},
		{"Kafka form", []string{"--bootstrap-server", "localhost:1", "--describe", "--group", "G", "-v"}, 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, tc.args...)
			assert.Equal(t, tc.code, r.code)
			assert.NotContains(t, r.stdout, "kstreams-groups version")
			assert.True(t, strings.HasPrefix(r.stdout, tc.stdout), r.stdout)
			assert.Contains(t, r.stderr, "unknown shorthand flag: 'v' in -v (the version is --version")
		})
	}
}
