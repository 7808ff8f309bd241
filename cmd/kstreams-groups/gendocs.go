//go:build gendocs

package main

// The release's documents: goreleaser's before hook runs the hidden
// gen-docs command, which writes the shell completion scripts (what the
// completion command prints) and a man page per command (reference.go) for
// the archives; gen-docs --reference writes the Markdown command reference
// of docs/reference instead (make docs). It is built only with the gendocs
// tag (go run -tags gendocs ./cmd/kstreams-groups gen-docs DIR): cobra's
// doc generator brings a markdown library whose start-up every run would
// pay.

import (
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// completionFiles are the scripts' file names, as each shell looks for
// them.
var completionFiles = map[string]string{
	"bash":       "kstreams-groups.bash",
	"zsh":        "_kstreams-groups",
	"fish":       "kstreams-groups.fish",
	"powershell": "kstreams-groups.ps1",
}

func (a *app) newGenDocsCmd() *cobra.Command {
	var date int64
	var reference bool
	cmd := &cobra.Command{
		Use:    "gen-docs DIR",
		Short:  "Write the completion scripts and man pages of a release, or the Markdown command reference, into DIR",
		Hidden: true,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("gen-docs takes one directory")
			}
			return nil
		},
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			// The whole tree: a run builds only the command it runs
			// (newRootCmdFor).
			root := (&app{}).newRootCmd()
			if reference {
				return writeReference(root, args[0])
			}
			completions, man := filepath.Join(args[0], "completions"), filepath.Join(args[0], "man")
			for _, dir := range []string{completions, man} {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
			}
			for _, shell := range shells {
				f, err := os.Create(filepath.Join(completions, completionFiles[shell]))
				if err != nil {
					return err
				}
				err = writeCompletion(root, shell, f, true)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return err
				}
			}
			// The pages' date is the commit's (--date), so that a release
			// build is reproducible. goreleaser knows no commit in a clone
			// without a remote (it passes 0): then SOURCE_DATE_EPOCH, or now.
			if date <= 0 {
				date, _ = strconv.ParseInt(a.getenv("SOURCE_DATE_EPOCH"), 10, 64)
			}
			when := time.Unix(date, 0).UTC()
			if date <= 0 {
				when = time.Now().UTC()
			}
			return writeManPages(root, &doc.GenManHeader{Title: "KSTREAMS-GROUPS", Section: "1", Date: &when,
				Source: "kstreams-groups " + resolveVersion().Version, Manual: "kstreams-groups manual"}, man)
		},
	}
	cmd.Flags().BoolVar(&reference, "reference", false, "Write the Markdown command reference (docs/reference) into DIR instead.")
	cmd.Flags().Int64Var(&date, "date", 0, "Date of the man pages, in seconds since 1970 (goreleaser: {{ .CommitTimestamp }}).")
	return cmd
}
