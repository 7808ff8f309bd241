//go:build gendocs

package main

// The command reference: a Markdown page per command for docs/reference
// (committed, kept current by TestCommandReference; `make docs` rewrites
// it) and a man page per command for the release archives (built by
// goreleaser's before hook, never committed: they are the same text as the
// Markdown pages, in roff). Both come from the commands themselves through
// cobra's doc generator; the man pages gain the sections a man page has
// and the help text has not: ENVIRONMENT, FILES and EXIT STATUS.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// writeReference writes the Markdown reference of root's commands into
// dir, replacing the pages that are there.
func writeReference(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "kstreams-groups*.md"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	root.DisableAutoGenTag = true
	// doc.GenMarkdownTreeCustom, with each page as its command's help
	// shows the options: without the root's that it does not take.
	return eachPage(root, func(c *cobra.Command) error {
		// The exit codes are a table in the help's columns: keep them so.
		if description, exits, ok := strings.Cut(c.Long, "\n\nExit status:\n"); ok {
			c.Long = description + "\n\nExit status:\n\n```\n" + exits + "\n```"
		}
		var buf bytes.Buffer
		buf.WriteString("<!-- Generated from the commands by `make docs` (gen-docs --reference); do not edit. -->\n\n")
		var err error
		withUnusedGlobalsHidden(c, func() { err = doc.GenMarkdownCustom(c, &buf, func(name string) string { return name }) })
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.ReplaceAll(c.CommandPath(), " ", "_")+".md"), buf.Bytes(), 0o644)
	})
}

// eachPage calls page for every command of c's tree that has a page, each
// after its subcommands.
func eachPage(c *cobra.Command, page func(c *cobra.Command) error) error {
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := eachPage(sub, page); err != nil {
			return err
		}
	}
	return page(c)
}

// manEnvironment is the ENVIRONMENT section of every man page (roff).
const manEnvironment = `.TP
\fBKSTREAMS_GROUPS_BOOTSTRAP_SERVER\fP, \fBKSTREAMS_GROUPS_TIMEOUT\fP, \fBKSTREAMS_GROUPS_DETAILED_EXIT_CODES\fP, \fBKSTREAMS_GROUPS_OUTPUT\fP, \fBKSTREAMS_GROUPS_COMMAND_CONFIG\fP, \fBKSTREAMS_GROUPS_DEBUG\fP
The flag of the same name (\-\-bootstrap\-server, \-\-timeout, ...), when the flag is not given. A flag wins over the variable, the variable over the config file.
.TP
\fBKSTREAMS_GROUPS_PROFILE\fP
The profile of the config file to use, when \-\-profile is not given.
.TP
\fBKSTREAMS_GROUPS_CONFIG\fP
The config file, when \-\-config is not given.
.TP
\fBXDG_CONFIG_HOME\fP
Where the config file is looked for (default ~/.config).
.TP
\fBNO_COLOR\fP, \fBTERM\fP
Output is colored only on a terminal, never with NO_COLOR set or TERM=dumb.
.TP
\fBGOGC\fP, \fBGOMEMLIMIT\fP
The Go runtime's garbage collector settings. Unset, a run collects nothing until the runtime holds 32 MiB, then paces as GOGC=100 does (serve sets its own limit, \-\-memory\-limit); set, either one leaves the collector as the variables say.
`

// manFiles is the FILES section of every man page (roff).
const manFiles = `.TP
\fI$XDG_CONFIG_HOME/kstreams\-groups/config.yaml\fP (\fI~/.config/kstreams\-groups/config.yaml\fP)
The config file: default settings and named profiles (bootstrap servers, timeout, client properties of secured clusters). Unknown keys are errors.
.TP
\fIthe user's cache directory\fP/kstreams\-groups/wazero (\fI~/.cache/kstreams\-groups/wazero\fP on Linux)
The picture renderer's compiled code, kept so that only the first large picture pays for it; safe to delete.
`

// manPage is cmd's man page: cobra's, with the "Exit status:" block of its
// help moved from DESCRIPTION to a section of its own, and ENVIRONMENT and
// FILES added before SEE ALSO.
func manPage(cmd *cobra.Command, header *doc.GenManHeader) ([]byte, error) {
	long := cmd.Long
	description, exits, found := strings.Cut(long, "\n\nExit status:\n")
	if found {
		cmd.Long = description
		defer func() { cmd.Long = long }()
	}
	var buf bytes.Buffer
	if err := doc.GenMan(cmd, header, &buf); err != nil {
		return nil, err
	}
	var extra strings.Builder
	if found {
		extra.WriteString(".SH EXIT STATUS\n")
		extra.WriteString(manExitStatus(exits))
	}
	if cmd.Name() != "completion" && cmd.Name() != "version" && cmd.Name() != "help" {
		extra.WriteString(".SH ENVIRONMENT\n" + manEnvironment + ".SH FILES\n" + manFiles)
	}
	page := buf.String()
	if i := strings.Index(page, ".SH SEE ALSO"); i >= 0 {
		page = page[:i] + extra.String() + "\n" + page[i:]
	} else {
		page += extra.String()
	}
	return []byte(page), nil
}

var exitCodeLine = regexp.MustCompile(`^\s*(\d+)\s{2,}(.*)$`)

// manExitStatus turns the "Exit status:" block of a help text into roff: a
// tagged paragraph per code (its meaning's wrapped lines joined), and the
// block's other lines as plain paragraphs.
func manExitStatus(block string) string {
	var b strings.Builder
	var text []string // the paragraph or the code's meaning being read
	code := ""
	flush := func() {
		switch {
		case code != "":
			fmt.Fprintf(&b, ".TP\n\\fB%s\\fP\n%s\n", code, roffEscape(strings.Join(text, " ")))
		case len(text) > 0:
			fmt.Fprintf(&b, ".PP\n%s\n", roffEscape(strings.Join(text, " ")))
		}
		code, text = "", nil
	}
	for _, line := range strings.Split(block, "\n") {
		m := exitCodeLine.FindStringSubmatch(line)
		switch {
		case m != nil:
			flush()
			code, text = m[1], []string{m[2]}
		case strings.TrimSpace(line) == "":
			flush()
		case code != "" && strings.HasPrefix(line, "     "):
			text = append(text, strings.TrimSpace(line)) // the meaning, wrapped
		default:
			if code != "" {
				flush()
			}
			text = append(text, strings.TrimSpace(line))
		}
	}
	flush()
	return b.String()
}

// roffEscape keeps a help line from reading as a roff request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// writeManPages writes a man page per available command into dir.
func writeManPages(root *cobra.Command, header *doc.GenManHeader, dir string) error {
	root.DisableAutoGenTag = true
	return eachPage(root, func(c *cobra.Command) error {
		h := *header
		var page []byte
		var err error
		withUnusedGlobalsHidden(c, func() { page, err = manPage(c, &h) })
		if err != nil {
			return err
		}
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + "." + header.Section
		return os.WriteFile(filepath.Join(dir, name), page, 0o644)
	})
}
