package main

import (
	"os"
	"path/filepath"
	"testing"
)

func strPtr(s string) *string { return &s }

// offsetValidationCases are the usage errors of --reset-offsets and
// --delete-offsets that both forms can express, in kafka-streams-groups.sh's
// order and with its messages (StreamsGroupCommandOptions.checkArgs,
// then the run-time checks this tool makes before anything is sent), for
// TestValidation_bothForms.
func offsetValidationCases(t *testing.T, bs string) []struct {
	name      string
	kafka     []string
	sub       []string
	wantError string
} {
	dir := t.TempDir()
	threeCols := filepath.Join(dir, "three.csv")
	if err := os.WriteFile(threeCols, []byte("wc-input,0,10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	conflict := filepath.Join(dir, "conflict.csv")
	if err := os.WriteFile(conflict, []byte("g,t,0,1\ng,t,0,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badNumber := filepath.Join(dir, "bad-number.csv")
	if err := os.WriteFile(badNumber, []byte("\uFEFFwc-input,0,10\nwc-input,1,1e3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reset := func(args ...string) ([]string, []string) {
		return append([]string{"--bootstrap-server", bs, "--reset-offsets"}, args...), append([]string{"--bootstrap-server", bs, "reset-offsets"}, args...)
	}
	del := func(args ...string) ([]string, []string) {
		return append([]string{"--bootstrap-server", bs, "--delete-offsets"}, args...), append([]string{"--bootstrap-server", bs, "delete-offsets"}, args...)
	}
	type tc = struct {
		name      string
		kafka     []string
		sub       []string
		wantError string
	}
	c := func(name string, forms func(...string) ([]string, []string), want string, args ...string) tc {
		k, s := forms(args...)
		return tc{name, k, s, want}
	}
	return []tc{
		{"reset without bootstrap", []string{"--reset-offsets", "--group", "g"}, []string{"reset-offsets", "--group", "g"}, `Missing required argument "[bootstrap-server]"`},
		{"delete-offsets without bootstrap", []string{"--delete-offsets"}, []string{"delete-offsets"}, `Missing required argument "[bootstrap-server]"`},
		c("reset dry-run and execute", reset, "Option [reset-offsets] only accepts one of [execute] and [dry-run]", "--dry-run", "--execute"),
		c("reset neither dry-run nor execute", reset, "Option [reset-offsets] takes the option: [execute] or [dry-run]", "--group", "g", "--to-earliest"),
		c("reset execute before group", reset, "Option [reset-offsets] takes the option: [execute] or [dry-run]"),
		c("reset without group", reset, "Option [reset-offsets] takes one of these options: [all-groups], [group]", "--dry-run", "--all-input-topics", "--to-earliest"),
		c("two scenarios", reset, `Option "[to-earliest]" can't be used with option "[to-latest]"`, "--group", "g", "--dry-run", "--to-latest", "--to-earliest"),
		c("scenarios in the Java order", reset, `Option "[to-offset]" can't be used with option "[shift-by]"`, "--group", "g", "--dry-run", "--shift-by", "1", "--to-offset", "1"),
		c("from-file against a scenario", reset, `Option "[to-current]" can't be used with option "[from-file]"`, "--group", "g", "--dry-run", "--from-file", "f", "--to-current"),
		c("datetime before duration", reset, `Option "[to-datetime]" can't be used with option "[by-duration]"`, "--group", "g", "--dry-run", "--by-duration", "PT1H", "--to-datetime", "x"),
		c("scenarios before the internal topics", reset, `Option "[to-earliest]" can't be used with option "[to-current]"`, "--group", "g", "--dry-run", "--to-current", "--to-earliest", "--delete-all-internal-topics"),
		c("delete all internal topics needs execute", reset, "Option [delete-all-internal-topics] takes [execute] when [reset-offsets] is used.", "--group", "g", "--dry-run", "--to-earliest", "--delete-all-internal-topics"),
		c("delete internal topic needs execute", reset, "Option [delete-internal-topic] takes [reset-offsets] when [execute] is used.", "--group", "g", "--dry-run", "--to-earliest", "--delete-internal-topic", "g-a-changelog"),
		c("reset group and all groups", reset, `Option "[group]" can't be used with option "[all-groups]"`, "--group", "g", "--all-groups", "--dry-run"),
		c("to-offset not a number", reset, "Cannot parse argument 'abc' of option to-offset", "--group", "g", "--dry-run", "--to-offset", "abc"),
		c("shift-by not a number", reset, "Cannot parse argument '1.5' of option shift-by", "--group", "g", "--dry-run", "--shift-by", "1.5"),
		c("number before scope", reset, "Cannot parse argument 'x' of option to-offset", "--group", "g", "--dry-run", "--to-offset", "x"),
		c("no scope", reset, "One of the reset scopes should be defined: --all-input-topics, --input-topic.", "--group", "g", "--dry-run", "--to-earliest"),
		c("scope before scenario", reset, "One of the reset scopes should be defined: --all-input-topics, --input-topic.", "--group", "g", "--execute"),
		c("input topic without partitions", reset, "Invalid topic arg 'wc-input:', expected topic name and partitions", "--group", "g", "--dry-run", "--input-topic", "wc-input:", "--to-earliest"),
		c("input topic with two colons", reset, "Invalid topic arg 'a:0:1', expected topic name and partitions", "--group", "g", "--dry-run", "--input-topic", "a:0:1", "--to-earliest"),
		c("input topic bad partition", reset, "Invalid partition 'a' specified in topic arg 'wc-input:a''", "--group", "g", "--dry-run", "--input-topic", "wc-input:a", "--to-earliest"),
		c("input topic range", reset, "Invalid partition '0-1' specified in topic arg 'wc-input:0-1''", "--group", "g", "--dry-run", "--input-topic", "wc-input:0-1", "--to-earliest"),
		c("input topic space", reset, "Invalid partition ' 1' specified in topic arg 'wc-input:0, 1''", "--group", "g", "--dry-run", "--input-topic", "wc-input:0, 1", "--to-earliest"),
		c("input topic before scenario", reset, "Invalid topic arg 't:', expected topic name and partitions", "--group", "g", "--dry-run", "--input-topic", "t:"),
		c("no scenario", reset, "Option '[reset-offsets]' requires one of the following scenarios: [[to-datetime], [by-duration], [to-earliest], [to-latest], [shift-by], [from-file], [to-current], [to-offset]]", "--group", "g", "--dry-run", "--all-input-topics"),
		c("datetime without T", reset, "Invalid --to-datetime '2020-01-01': want an ISO 8601 date and time such as 2020-01-01T05:00:00.000, optionally with a zone (Z, +05:30, +0530 or +05; none means UTC)",
			"--group", "g", "--dry-run", "--all-input-topics", "--to-datetime", "2020-01-01"),
		c("datetime out of range", reset, "Invalid --to-datetime '2020-01-01T25:00:00.000': want an ISO 8601 date and time such as 2020-01-01T05:00:00.000, optionally with a zone (Z, +05:30, +0530 or +05; none means UTC)",
			"--group", "g", "--dry-run", "--all-input-topics", "--to-datetime", "2020-01-01T25:00:00.000"),
		c("duration with years", reset, "Invalid --by-duration 'P1Y': Text cannot be parsed to a Duration (want PnDTnHnMnS, e.g. PT1H30M or P1D)", "--group", "g", "--dry-run", "--all-input-topics", "--by-duration", "P1Y"),
		c("duration without P", reset, "Invalid --by-duration '1h': Text cannot be parsed to a Duration (want PnDTnHnMnS, e.g. PT1H30M or P1D)", "--group", "g", "--dry-run", "--all-input-topics", "--by-duration", "1h"),
		c("missing file", reset, "--from-file: cannot read "+filepath.Join(dir, "none.csv")+": no such file or directory", "--group", "g", "--dry-run", "--from-file", filepath.Join(dir, "none.csv")),
		c("three columns need one group", reset, "--from-file: "+threeCols+":1: want 4 columns (group,topic,partition,offset), got 3; a file of topic,partition,offset lines needs exactly one --group",
			"--group", "g", "--group", "h", "--dry-run", "--from-file", threeCols),
		c("conflicting lines", reset, "--from-file: "+conflict+":2: t-0 of group 'g' is already on line 1 with offset 1, not 2", "--all-groups", "--dry-run", "--from-file", conflict),
		c("a bad number in a one-group file is reported as such", reset, "--from-file: "+badNumber+`:2: offset "1e3" is not a decimal integer`, "--group", "g", "--dry-run", "--from-file", badNumber),
		c("from-file is bounded", reset, "--from-file: cannot read /dev/zero: the file is larger than 64 MiB, the limit for a --from-file reset plan", "--group", "g", "--dry-run", "--from-file", "/dev/zero"),
		c("reset drawing", reset, "-o dot: reset-offsets prints text, json or yaml; -o dot is printed by describe --topology, overview and render", "--group", "g", "--dry-run", "--all-input-topics", "--to-earliest", "-o", "dot"),
		c("export is text", reset, "--export prints the plan as CSV: leave out -o json", "--group", "g", "--dry-run", "--all-input-topics", "--to-earliest", "--export", "-o", "json"),

		c("delete-offsets without group", del, "Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]", "--all-input-topics"),
		c("delete-offsets without topics", del, "Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]", "--group", "g"),
		c("delete-offsets two groups", del, "Option [delete-offsets] supports only one [group] at a time, but found: [a, b]", "--group", "a", "--group", "b", "--all-input-topics"),
		c("delete-offsets bad partition", del, "Invalid partition 'x' specified in topic arg 't:x''", "--group", "g", "--input-topic", "t:x"),
		c("delete-offsets negative partition", del, "--input-topic 't:0,-1': partition -1 is negative", "--group", "g", "--input-topic", "t:0,-1"),
		c("delete-offsets empty topic", del, "--input-topic '': the topic name is empty", "--group", "g", "--input-topic", "t", "--input-topic", ""),
		c("delete-offsets empty topic with partitions", del, "--input-topic ':0': the topic name is empty", "--group", "g", "--input-topic", ":0"),
		c("delete-offsets drawing", del, "-o mermaid: delete-offsets prints text, json or yaml; -o mermaid is printed by describe --topology, overview and render", "--group", "g", "--all-input-topics", "-o", "mermaid"),
	}
}
