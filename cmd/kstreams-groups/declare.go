package main

// What a verb declares beyond its flags, once, in its entry of verbs():
// the -o formats it prints (outputs) and the exit codes it can end with
// (exits, or own for a verb with codes of its own). Validation of -o, the
// hint naming the commands that print a format, the completion of -o and
// the help's "Output formats" and "Exit status" blocks are all derived
// from it here.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// outputRule is a set of -o formats a verb prints, with the option
// without which it does not (--topology: describe draws only its
// topology view); with nil means always.
type outputRule struct {
	formats []format.Output
	with    declared
}

// documentOutputs are the formats every verb prints, and the outputs of a
// verb that declares none.
var documentOutputs = []format.Output{format.Text, format.JSON, format.YAML}

// drawingOutputs are the formats that draw a topology.
var drawingOutputs = []format.Output{format.Dot, format.Mermaid, format.SVG, format.PNG}

// outputsOf is a command's declared formats: rules, or documentOutputs.
func outputsOf(rules []outputRule) []outputRule {
	if len(rules) == 0 {
		return []outputRule{{formats: documentOutputs}}
	}
	return rules
}

// offlineOutputs are the formats of the commands that are not verbs, for
// the hint that names who prints a format.
var offlineOutputs = []struct {
	name    string
	outputs []outputRule
}{
	{"render", []outputRule{{formats: append(slices.Clone(documentOutputs), drawingOutputs...)}}},
	{"version", nil},
}

// allows reports whether the verb prints o in the invocation v.
func (vb *verb) allows(o format.Output, v flagValues) bool {
	for _, r := range outputsOf(vb.outputs) {
		if slices.Contains(r.formats, o) && (r.with == nil || r.with.def().set(v)) {
			return true
		}
	}
	return false
}

// checkOutput is the one refusal of a -o format a verb does not print: it
// says what the verb prints and which commands print o.
func (vb *verb) checkOutput(o format.Output, v flagValues) error {
	if vb.allows(o, v) {
		return nil
	}
	msg := fmt.Sprintf("-o %s: %s prints %s", o, vb.name, describeOutputs(vb.outputs))
	if who := printersOf(o); len(who) > 0 {
		msg += fmt.Sprintf("; -o %s is printed by %s", o, joinAnd(who))
	}
	return usageErrorf("%s", msg)
}

// describeOutputs says what a command prints: "text, json, yaml, prometheus
// (with --state)".
func describeOutputs(rules []outputRule) string {
	var parts []string
	for _, r := range outputsOf(rules) {
		s := joinFormats(r.formats)
		if r.with != nil {
			s += " with --" + r.with.def().name
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", and ")
}

// joinFormats is "text, json or yaml".
func joinFormats(fs []format.Output) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = string(f)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// printersOf names the commands that print o ("describe --topology").
func printersOf(o format.Output) []string {
	var who []string
	add := func(name string, rules []outputRule) {
		for _, r := range outputsOf(rules) {
			if slices.Contains(r.formats, o) {
				if r.with != nil {
					name += " --" + r.with.def().name
				}
				who = append(who, name)
				return
			}
		}
	}
	for _, vb := range verbs() {
		add(vb.name, vb.outputs)
	}
	for _, c := range offlineOutputs {
		add(c.name, c.outputs)
	}
	return who
}

func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// verbFormats are every format the verb may print, for the completion of
// its -o.
func (vb *verb) verbFormats() []format.Output {
	var out []format.Output
	for _, r := range outputsOf(vb.outputs) {
		for _, f := range r.formats {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// ownExit is the exit-code table of a verb with codes of its own (check,
// doctor, diff), never in exitStatuses, and the note after it.
type ownExit struct {
	statuses []exitStatus
	note     string
}

// exitHelp is the verb's "Exit status:" block: its own table, or the rows
// of exitStatuses it declares.
func (vb *verb) exitHelp() string {
	if vb.own != nil {
		return ownExitHelp(vb.own.statuses, vb.own.note)
	}
	return exitStatusHelpOf(vb.exits)
}

// exitCodes are the codes the verb can end with, from its declaration.
func (vb *verb) exitCodes() []int {
	if vb.own != nil {
		var codes []int
		for _, s := range vb.own.statuses {
			codes = append(codes, s.Code)
		}
		return codes
	}
	return vb.exits
}

// exitStatusHelpOf is the "Exit status:" block of the rows of exitStatuses
// with the given codes (all of them for nil), those that need
// --detailed-exit-codes after their heading.
func exitStatusHelpOf(codes []int) string {
	var b strings.Builder
	b.WriteString("Exit status:\n")
	has := func(c int) bool { return codes == nil || slices.Contains(codes, c) }
	for _, s := range exitStatuses {
		if !s.Detailed && has(s.Code) {
			fmt.Fprintf(&b, "  %d  %s\n", s.Code, s.Meaning)
		}
	}
	heading := false
	for _, s := range exitStatuses {
		if s.Detailed && has(s.Code) {
			if !heading {
				b.WriteString("With --detailed-exit-codes:\n")
				heading = true
			}
			fmt.Fprintf(&b, "  %d  %s\n", s.Code, s.Meaning)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// outputHelp is the help's line of the formats a verb prints.
func (vb *verb) outputHelp() string {
	return "Output formats (-o): " + describeOutputs(vb.outputs) + "."
}

// completeVerbOutputs offers the -o formats of the command being
// completed: a verb's own, or all of them elsewhere.
func completeVerbOutputs(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	fs := format.AllowedOutputs()
	for _, vb := range verbs() {
		if cmd.Name() == vb.name && cmd.HasParent() && !cmd.Parent().HasParent() {
			fs = vb.verbFormats()
		}
	}
	for _, c := range offlineOutputs {
		if cmd.Name() == c.name {
			fs = outputsOf(c.outputs)[0].formats
		}
	}
	var out []cobra.Completion
	for _, o := range fs {
		out = append(out, string(o))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// clusterExits are the codes of a verb that talks to a cluster: success,
// failure, usage, the failures any request can meet (not authorized,
// unavailable, a broker too old), the signals, and the verb's own extra
// detailed codes.
func clusterExits(extra ...int) []int {
	codes := []int{exitOK, exitFailure, exitUsage, exitNotAuthorized, exitUnavailable, exitTooOld, exitSIGINT, exitSIGTERM}
	codes = append(codes, extra...)
	slices.Sort(codes)
	return slices.Compact(codes)
}

// checkOfflineOutput refuses a -o format that the offline command name
// (offlineOutputs) does not print, as checkOutput does for a verb.
func checkOfflineOutput(name string, o format.Output) error {
	for _, c := range offlineOutputs {
		if c.name == name {
			return (&verb{name: name, outputs: c.outputs}).checkOutput(o, flagValues{})
		}
	}
	return nil
}
