package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the binary people run links is what every run initialises before
// main (BenchmarkStartup measures it): the release's doc generator (cobra's
// man pages, a markdown library) stays behind the gendocs tag.
func TestStartup_noDocGenerator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	for _, heavy := range []string{"github.com/spf13/cobra/doc", "github.com/cpuguy83/go-md2man/v2/md2man", "github.com/russross/blackfriday/v2"} {
		assert.NotContains(t, deps, heavy, "the kstreams-groups binary links %s; keep it behind the gendocs tag", heavy)
	}
	tagged, err := exec.Command("go", "list", "-tags", "gendocs", "-deps", ".").Output()
	require.NoError(t, err)
	assert.Contains(t, strings.Fields(string(tagged)), "github.com/spf13/cobra/doc", "gen-docs is built with -tags gendocs")
}
