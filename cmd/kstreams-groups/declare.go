package main

// What a verb declares beyond its flags, once, in its entry of verbs():
// its printer, whose renderers are the -o formats it prints, and the exit codes it can end with
// (exits, or own for a verb with codes of its own). Validation of -o, the
// hint naming the commands that print a format, the completion of -o and
// the help's "Output formats" and "Exit status" blocks are all derived
// from it here.

import (
	"fmt"
	"io"
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

// render is a printer's renderer of one -o format beyond text, json and
// yaml, and the option without which the verb does not print it (with;
// nil means always).
type render[R any] struct {
	write func(w io.Writer, res R) error
	with  declared
}

// drawings are the renderers of -o dot, mermaid, svg and png: graph draws
// the result on stdout in the -o format (a.cfg.Output).
func drawings[R any](graph func(res R) error, with declared) map[format.Output]render[R] {
	m := map[format.Output]render[R]{}
	for _, o := range drawingOutputs {
		m[o] = render[R]{write: func(_ io.Writer, res R) error { return graph(res) }, with: with}
	}
	return m
}

// oneDrawing refuses the groups of a drawing that holds one diagram: every
// drawing but -o dot, which draws one graph per group.
func oneDrawing(o format.Output, groups int) error {
	if o != format.Dot && groups > 1 {
		return usageErrorf("-o %s draws one group; pass a single --group (or use -o dot, which draws one graph per group)", o)
	}
	return nil
}

// metrics is the renderer of -o prometheus.
func metrics[R any](prom func(w io.Writer, res R) error, with declared) map[format.Output]render[R] {
	return map[format.Output]render[R]{format.Prometheus: {write: prom, with: with}}
}

// outputSet is what the declaration reads of a printer: its formats.
type outputSet interface{ outputRules() []outputRule }

// outputRules are the printer's formats: text, json, yaml and those of
// more that need no option, then those of more by the option they need,
// each in the order of format.AllowedOutputs.
func (p printer[R]) outputRules() []outputRule {
	rules := []outputRule{{formats: slices.Clone(documentOutputs)}}
	for _, o := range format.AllowedOutputs() {
		r, ok := p.more[o]
		if !ok {
			continue
		}
		i := slices.IndexFunc(rules, func(rule outputRule) bool { return sameOption(rule.with, r.with) })
		if i < 0 {
			rules = append(rules, outputRule{with: r.with})
			i = len(rules) - 1
		}
		rules[i].formats = append(rules[i].formats, o)
	}
	return rules
}

func sameOption(a, b declared) bool {
	return a == nil && b == nil || a != nil && b != nil && a.def().name == b.def().name
}

// writer is how the printer writes -o o other than text (which needs
// stdout's styles first): its renderer, or the document encoded; false
// when it prints no o.
func (p printer[R]) writer(o format.Output) (func(w io.Writer, res R) error, bool) {
	if r, ok := p.more[o]; ok {
		return r.write, true
	}
	if o == format.JSON || o == format.YAML {
		return func(w io.Writer, res R) error { return format.Encode(w, o, p.doc(res)) }, true
	}
	return nil, false
}

// outputRules are the verb's formats, from its printer.
func (vb *verb) outputRules() []outputRule {
	if vb.printer == nil {
		return outputsOf(nil)
	}
	return vb.printer.outputRules()
}

// ruleSet is a declaration of formats without a printer (the commands
// that are not verbs).
type ruleSet []outputRule

func (r ruleSet) outputRules() []outputRule { return outputsOf(r) }

// allows reports whether the verb prints o in the invocation v.
func (vb *verb) allows(o format.Output, v flagValues) bool {
	for _, r := range vb.outputRules() {
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
	msg := fmt.Sprintf("-o %s: %s prints %s", o, vb.command(), describeOutputs(vb.outputRules()))
	if who := printersOf(o); len(who) > 0 {
		msg += fmt.Sprintf("; -o %s is printed by %s", o, joinList(who, "and"))
	}
	return usageErrorf("%s", msg)
}

// describeOutputs says what a command prints: "text, json, yaml, prometheus
// (with --state)".
func describeOutputs(rules []outputRule) string {
	var parts []string
	for _, r := range outputsOf(rules) {
		names := make([]string, len(r.formats))
		for i, f := range r.formats {
			names[i] = string(f)
		}
		s := joinList(names, "or")
		if r.with != nil {
			s += " with --" + r.with.def().name
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", and ")
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
		add(vb.command(), vb.outputRules())
	}
	for _, c := range commandDecls() {
		add(c.name, c.outputs)
	}
	return who
}

// verbFormats are every format the verb may print, for the completion of
// its -o.
func (vb *verb) verbFormats() []format.Output {
	var out []format.Output
	for _, r := range vb.outputRules() {
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
	return "Output formats (-o): " + describeOutputs(vb.outputRules()) + "."
}

// completeVerbOutputs offers the -o formats of the command being
// completed: a verb's own, or all of them elsewhere.
func completeVerbOutputs(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	fs := format.AllowedOutputs()
	for _, vb := range verbs() {
		if cmd.HasParent() && strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") == vb.command() {
			fs = vb.verbFormats()
		}
	}
	for _, c := range commandDecls() {
		if cmd.Name() == c.name && cmd.HasParent() && !cmd.Parent().HasParent() {
			fs = c.asVerb().verbFormats()
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
