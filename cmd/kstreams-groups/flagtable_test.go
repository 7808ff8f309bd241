package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// undeclaredReads validates every verb's invocation with no options
// given, in both forms, and serve's option parsing, and returns
// the options each read that its flag table lacks, by verb and form.
func undeclaredReads(t *testing.T, a *app) map[string][]string {
	t.Helper()
	root := a.newRootCmd()
	require.NoError(t, root.ParseFlags(nil))
	reads := map[string][]string{}
	for _, vb := range a.verbs() {
		sub, _, err := root.Find(strings.Fields(vb.command()))
		require.NoError(t, err)
		require.NoError(t, sub.ParseFlags(nil)) // merges the root's persistent flags
		forms := map[string]*cobra.Command{"subcommand": sub}
		if !vb.subcommandOnly {
			forms["kafka form"] = root
		}
		for form, cmd := range forms {
			key := vb.name + " (" + form + ")"
			v := flagValues{fs: cmd.Flags(), undeclared: func(name string) { reads[key] = append(reads[key], name) }}
			// The whole validation: the availableIf checks, the verb's
			// parse and checks, the checks between verbs.
			_, _ = a.validate(context.Background(), []*verb{vb}, v)
		}
	}
	serve, _, err := root.Find([]string{"serve"})
	require.NoError(t, err)
	require.NoError(t, serve.ParseFlags(nil))
	v := flagValues{fs: serve.Flags(), undeclared: func(name string) { reads["serve"] = append(reads["serve"], name) }}
	_, _ = a.serveOptions(context.Background(), v)
	_, _ = a.checkOptions(v)
	return reads
}

func testApp() *app {
	return &app{io: IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, deps: deps{env: mapEnviron(nil)},
		cfg: Config{Bootstrap: []string{"127.0.0.1:9"}}}
}

// Every verb's parse (and its validate), and serve's, reads only the
// options its flag table declares (and the root's): a read of another one
// would silently be "not given". Both forms. Every command test checks
// the same on the paths it runs (testRun sets deps.undeclared).
func TestVerbParse_readsOnlyItsFlags(t *testing.T) {
	t.Parallel()
	assert.Empty(t, undeclaredReads(t, testApp()))
}

// The check fails on a read the table lacks: overview's table without
// --partition-metrics (a shared handle overview still reads), and a
// handle whose name is misspelt.
func TestVerbParse_undeclaredReadFails(t *testing.T) {
	t.Parallel()
	a := testApp()
	var ov *verb
	for _, vb := range a.verbs() {
		if vb.name == "overview" {
			ov = vb
		}
	}
	ov.flags = slicesDeleteName(ov.flags, "partition-metrics")
	parse := ov.parse
	misspelt := boolOption(flagDef{name: "time-lags"})
	ov.parse = func(v flagValues) job {
		_ = misspelt.get(v)
		return parse(v)
	}
	assert.Equal(t, map[string][]string{
		"overview (subcommand)": {"time-lags", "partition-metrics"},
	}, undeclaredReads(t, a))
}

// A handle of another kind than the registered option is an undeclared
// read too: it would read as the zero value.
func TestFlagValues_kindMismatchIsUndeclared(t *testing.T) {
	t.Parallel()
	cmd := &cobra.Command{Use: "x"}
	stringOption(flagDef{name: "store"}).register(cmd.Flags(), false)
	boolOption(flagDef{name: "time-lag"}).register(cmd.Flags(), false)
	stringsOption(flagDef{name: "group"}).register(cmd.Flags(), false)
	optionalOption(flagDef{name: "state", valueName: "STATES"}).register(cmd.Flags(), false)
	cmd.Flags().Int("port", 0, "not a kind of a flag table")
	require.NoError(t, cmd.ParseFlags([]string{"--store", "s", "--time-lag", "--group", "a\r\nb", "--state=" + optionalNoValue}))
	var undeclared []string
	v := flagValues{fs: cmd.Flags(), undeclared: func(name string) { undeclared = append(undeclared, name) }}

	assert.Equal(t, "s", stringOption(flagDef{name: "store"}).get(v))
	assert.True(t, boolOption(flagDef{name: "time-lag"}).get(v))
	assert.Equal(t, []string{"a\r\nb"}, stringsOption(flagDef{name: "group"}).get(v), "the value as given, CR LF kept")
	given, value := optionalOption(flagDef{name: "state"}).get(v)
	assert.True(t, given)
	assert.Nil(t, value)
	assert.Empty(t, undeclared)

	assert.False(t, boolOption(flagDef{name: "store"}).get(v))
	assert.Empty(t, stringOption(flagDef{name: "time-lag"}).get(v))
	assert.Nil(t, stringOption(flagDef{name: "group"}).given(v))
	assert.Empty(t, stringOption(flagDef{name: "port"}).get(v))
	assert.Equal(t, []string{"store", "time-lag", "group", "port"}, undeclared)

	undeclared = nil
	assert.False(t, boolOption(flagDef{name: "execute"}).get(v.lenient()), "lenient: another verb's option, not given")
	assert.Empty(t, undeclared)
}

func slicesDeleteName(defs []flagDef, name string) []flagDef {
	var out []flagDef
	for _, f := range defs {
		if f.name != name {
			out = append(out, f)
		}
	}
	return out
}
