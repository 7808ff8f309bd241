// Package doctest reads the shell examples of the project's Markdown pages,
// for the tests that run them: TestDocExamples (cmd/kstreams-groups)
// against the playground, and the real-Kafka suite (e2e) against a broker.
// A fenced block is
//
//   - ```sh (or bash, shell): a script, one command a line (continued by a
//     trailing backslash); a comment "# exit N" gives a command's exit
//     code;
//   - ```console: a transcript: each "$ " line is a command, the lines up
//     to the next one what it prints; "$ echo $?" shows the code of the
//     command before;
//   - after a line <!-- real-kafka: WHY -->: a block that needs a real
//     cluster (the e2e suite runs its commands against one);
//   - after a line <!-- parse-only: WHY -->: a block whose output depends on
//     timing or on a cluster the playground is not;
//   - after a line <!-- not-run: WHY -->: not run (a config file, say).
//
// Any other block holding a kstreams-groups command is a problem: every
// example runs or says why not.
package doctest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Block is a fenced block of a page that holds commands.
type Block struct {
	// Kind is sh, console, real-kafka (parse-only blocks included) or
	// not-run.
	Kind string
	// Marker is the marker before the block: real-kafka, parse-only,
	// not-run, or "".
	Marker   string
	Line     int // of the opening fence, 1-based
	Commands []Command
}

// Command is one command of a block.
type Command struct {
	Line     int    // in the page, 1-based
	Text     string // continuation lines joined
	Kind     string // sh or console
	WantExit int    // sh: the "# exit N" of its comment; console: echo $?'s line
	CheckRC  bool   // whether WantExit is checked
	Output   []string
}

var (
	fenceLine  = regexp.MustCompile("^ *```([A-Za-z]*)")
	markerLine = regexp.MustCompile(`^<!-- (real-kafka|parse-only|not-run): .+ -->$`)
	exitNote   = regexp.MustCompile(`# exits? (\d+)\b`)
)

// Blocks finds the blocks of a page that hold commands, and the blocks
// that hold a command without saying how to run it.
func Blocks(text string) ([]Block, []string) {
	lines := strings.Split(text, "\n")
	var blocks []Block
	var problems []string
	marker := ""
	for i := 0; i < len(lines); i++ {
		m := fenceLine.FindStringSubmatch(lines[i])
		if m == nil {
			if l := strings.TrimSpace(lines[i]); l != "" {
				marker = ""
				if mm := markerLine.FindStringSubmatch(l); mm != nil {
					marker = mm[1]
				}
			}
			continue
		}
		indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
		start := i + 1
		j := start
		for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
			j++
		}
		body := make([]string, 0, j-start)
		for _, l := range lines[start:j] {
			if len(l) >= indent {
				l = l[indent:]
			}
			body = append(body, l)
		}
		b, problem := block(m[1], marker, body, start+1)
		switch {
		case problem:
			problems = append(problems, fmt.Sprintf("%d: a block with kstreams-groups commands is ```sh or ```console, or says <!-- real-kafka: why --> or <!-- not-run: why --> on the line before it", i+1))
		case b != nil:
			b.Line = i + 1
			blocks = append(blocks, *b)
		}
		marker = ""
		i = j
	}
	return blocks, problems
}

// block is the block of a fence of language lang after marker, with its
// body from line first; nil when it holds no commands to run or check,
// and problem when it holds some without saying how.
func block(lang, marker string, body []string, first int) (b *Block, problem bool) {
	kind := marker
	if kind == "parse-only" {
		kind = "real-kafka" // the same check on the playground
	}
	if kind == "" {
		switch lang {
		case "sh", "bash", "shell":
			kind = "sh"
		case "console":
			kind = "console"
		}
	}
	hasCommand := false
	for _, l := range body {
		if strings.HasPrefix(l, "$ kstreams-groups") || strings.HasPrefix(l, "kstreams-groups ") {
			hasCommand = true
		}
	}
	switch {
	case kind == "sh":
		return &Block{Kind: kind, Marker: marker, Commands: shCommands(body, first)}, false
	case kind == "console" || kind == "real-kafka" && hasPrompt(body):
		return &Block{Kind: kind, Marker: marker, Commands: consoleCommands(body, first)}, false
	case kind == "real-kafka":
		return &Block{Kind: kind, Marker: marker, Commands: shCommands(body, first)}, false
	case kind == "not-run":
		if hasCommand {
			return &Block{Kind: kind, Marker: marker}, false
		}
		return nil, false
	}
	return nil, hasCommand && lang != "yaml" && lang != "java" && lang != "json"
}

func hasPrompt(body []string) bool {
	for _, l := range body {
		if strings.HasPrefix(l, "$ ") {
			return true
		}
	}
	return false
}

// shCommands splits a script into its commands, one a line (continued by
// a trailing backslash), comments and blank lines left out.
func shCommands(body []string, first int) []Command {
	var out []Command
	for i := 0; i < len(body); i++ {
		l := body[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		c := Command{Line: first + i, Kind: "sh", Text: l}
		for strings.HasSuffix(c.Text, "\\") && i+1 < len(body) {
			i++
			c.Text += "\n" + body[i] // the backslash kept: one shell command
		}
		if m := exitNote.FindStringSubmatch(c.Text); m != nil {
			c.WantExit, _ = strconv.Atoi(m[1])
		}
		c.CheckRC = strings.HasPrefix(c.Text, "kstreams-groups ") && !Background(c.Text)
		out = append(out, c)
	}
	return out
}

// consoleCommands splits a transcript into its "$ " commands and what each
// prints.
func consoleCommands(body []string, first int) []Command {
	var out []Command
	for i := 0; i < len(body); i++ {
		l := body[i]
		if !strings.HasPrefix(l, "$ ") {
			if len(out) > 0 {
				out[len(out)-1].Output = append(out[len(out)-1].Output, l)
			}
			continue
		}
		c := Command{Line: first + i, Kind: "console", Text: strings.TrimPrefix(l, "$ "), CheckRC: true}
		for strings.HasSuffix(c.Text, "\\") && i+1 < len(body) {
			i++
			c.Text += "\n" + body[i] // the backslash kept: one shell command
		}
		if Background(c.Text) {
			c.CheckRC = false
		}
		out = append(out, c)
	}
	for i := range out {
		if i+1 < len(out) && strings.TrimSpace(out[i+1].Text) == "echo $?" && len(out[i+1].Output) > 0 {
			out[i].WantExit, _ = strconv.Atoi(strings.TrimSpace(out[i+1].Output[0]))
		}
	}
	return out
}

// Background tells whether a command is left running in the background
// (it ends in &).
func Background(cmd string) bool {
	return strings.HasSuffix(strings.TrimSpace(StripComment(cmd)), "&")
}

// StripComment cuts a shell line's trailing comment: a # after a blank,
// outside quotes.
func StripComment(s string) string {
	var quote rune
	prev := ' '
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (prev == ' ' || prev == '\t'):
			return strings.TrimRight(s[:i], " \t")
		}
		prev = r
	}
	return s
}
