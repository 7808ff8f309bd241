//go:build gendocs

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra/doc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/reference is what gen-docs --reference writes from the commands as
// they are: a page per command, no page for a command that is gone.
func TestCommandReference(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	require.NoError(t, writeReference((&app{}).newRootCmd(), dir))
	committed := filepath.Join(repoRoot, "docs", "reference")
	want, err := filepath.Glob(filepath.Join(dir, "*.md"))
	require.NoError(t, err)
	have, err := filepath.Glob(filepath.Join(committed, "*.md"))
	require.NoError(t, err)
	names := func(paths []string) []string {
		var out []string
		for _, p := range paths {
			out = append(out, filepath.Base(p))
		}
		return out
	}
	require.Equal(t, names(want), names(have), "docs/reference is out of date: run make docs")
	for _, p := range want {
		w, err := os.ReadFile(p)
		require.NoError(t, err)
		h, err := os.ReadFile(filepath.Join(committed, filepath.Base(p)))
		require.NoError(t, err)
		assert.Equal(t, string(w), string(h), "docs/reference/%s is out of date: run make docs", filepath.Base(p))
	}
	assert.Contains(t, names(want), "kstreams-groups_overview.md")
	assert.NotContains(t, names(want), "kstreams-groups_gen-docs.md", "hidden commands have no page")
}

// Every man page has its command's exit codes in EXIT STATUS (not in
// DESCRIPTION), and the verbs that read settings have ENVIRONMENT and FILES
// naming every variable the configuration page names.
func TestManPages(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	when := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, writeManPages((&app{}).newRootCmd(), &doc.GenManHeader{Title: "KSTREAMS-GROUPS", Section: "1", Date: &when}, dir))
	config, err := os.ReadFile(filepath.Join(repoRoot, "docs", "configuration.md"))
	require.NoError(t, err)
	vars := regexp.MustCompile(`KSTREAMS_GROUPS_[A-Z_]+`).FindAllString(string(config), -1)
	require.NotEmpty(t, vars)
	for _, name := range []string{"kstreams-groups.1", "kstreams-groups-check.1", "kstreams-groups-describe.1", "kstreams-groups-version.1"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, name)
		page := string(b)
		description, _, _ := strings.Cut(page, ".SH OPTIONS")
		assert.NotContains(t, description, "Exit status:", name)
		exits := section(page, "EXIT STATUS")
		assert.Contains(t, exits, ".TP\n\\fB0\\fP\n", name)
		if name == "kstreams-groups-version.1" {
			assert.NotContains(t, page, ".SH ENVIRONMENT", "version reads no settings")
			continue
		}
		for _, v := range vars {
			assert.Contains(t, section(page, "ENVIRONMENT"), v, "%s: ENVIRONMENT names %s", name, v)
		}
		assert.Contains(t, section(page, "FILES"), `kstreams\-groups/config.yaml`, name)
	}
	check, err := os.ReadFile(filepath.Join(dir, "kstreams-groups-check.1"))
	require.NoError(t, err)
	assert.Contains(t, section(string(check), "EXIT STATUS"), ".TP\n\\fB3\\fP\nUNKNOWN: usage error", "check's own codes")
	root, err := os.ReadFile(filepath.Join(dir, "kstreams-groups.1"))
	require.NoError(t, err)
	assert.Contains(t, section(string(root), "EXIT STATUS"), ".PP\nWith \\-\\-detailed\\-exit\\-codes:\n.TP\n\\fB3\\fP\n")
}

// section is the body of a man page's section.
func section(page, name string) string {
	_, rest, ok := strings.Cut(page, ".SH "+name+"\n")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n.SH ")
	return body
}
