package main

// Each verb declares its options once, in a flag table (describe.go,
// list.go, delete.go, ...). Both command forms register from those tables:
// the root command (the kafka-streams-groups.sh form) takes the union of
// every verb's options with the Java tool's help texts, and each subcommand
// takes its own verb's options with friendlier help. Parsed values are read
// back by name (flagValues), so a verb builds the same options struct from
// either form and validation runs once, in validate (verbs.go).

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagKind is the value shape of an option.
type flagKind int

const (
	boolFlag     flagKind = iota
	stringsFlag           // repeatable: --group a --group b
	optionalFlag          // an optional value: --state or --state=V (joptsimple's [String])
	stringFlag
)

// flagDef is one option of a verb.
type flagDef struct {
	name string
	// short is a one-letter shorthand (check's -v); "" for none.
	short string
	kind  flagKind
	// kafkaHelp is the help of the kafka-streams-groups.sh form.
	kafkaHelp string
	// help is the help in the verb's subcommand.
	help string
	// availableIf lists the actions without which the Kafka form refuses
	// the option (joptsimple's availableIf), checked before anything else.
	availableIf []string
	// valueName names an optionalFlag's value in the help, shown in
	// brackets as the Java tool shows an optional argument ("--state
	// [STATES]"; joptsimple prints "[String]").
	valueName string
}

// withHelp is f with another subcommand help, for a verb that shares the
// option (and its Kafka help) with others.
func (f flagDef) withHelp(help string) flagDef {
	f.help = help
	return f
}

// optionalNoValue is what an optionalFlag holds when given without a value
// (joinOptionalArgs writes it): NUL, which no argument can hold.
const optionalNoValue = "\x00"

// optionalValue is the value of an optionalFlag. It is a plain string flag
// to pflag; its type names the value for the help, so the help reads
// "--state [STATES]" and not pflag's `--state string[="..."]` of an
// optional value (NoOptDefVal), which would also print the NUL.
type optionalValue struct {
	s    string
	name string
}

func (o *optionalValue) Set(s string) error { o.s = s; return nil }
func (o *optionalValue) String() string     { return o.s }
func (o *optionalValue) Type() string       { return "[" + o.name + "]" }

// register adds f to fs with the help of the form.
func (f flagDef) register(fs *pflag.FlagSet, kafkaForm bool) {
	help := f.help
	if kafkaForm || help == "" {
		help = f.kafkaHelp
	}
	switch f.kind {
	case boolFlag:
		fs.BoolP(f.name, f.short, false, help)
	case stringsFlag:
		fs.StringArray(f.name, nil, help)
	case optionalFlag:
		fs.Var(&optionalValue{name: f.valueName}, f.name, help)
	case stringFlag:
		fs.String(f.name, "", help)
	}
}

// flagValues reads the parsed options of one command line by name, and
// its positional arguments (for a verb that takes some, such as diff).
type flagValues struct {
	fs   *pflag.FlagSet
	args []string
	// unknown, when set, is told of every name read that the flag set
	// does not have: a misspelt name would read as "not given", so the
	// test of every verb's parse (TestVerbParse_readsOnlyItsFlags) fails
	// on it. Reads between verbs (sharedChecks) go through lenient.
	unknown func(name string)
}

// lenient is v for reading the options of other verbs, which a
// subcommand does not have: absent means not given.
func (v flagValues) lenient() flagValues {
	v.unknown = nil
	return v
}

// lookup is the flag of that name, nil (and unknown told) when there is
// none.
func (v flagValues) lookup(name string) *pflag.Flag {
	if v.fs == nil {
		return nil
	}
	f := v.fs.Lookup(name)
	if f == nil && v.unknown != nil {
		v.unknown(name)
	}
	return f
}

// set reports whether the option was given on the command line.
func (v flagValues) set(name string) bool {
	f := v.lookup(name)
	return f != nil && f.Changed
}

func (v flagValues) bool(name string) bool {
	if v.lookup(name) == nil {
		return false
	}
	b, _ := v.fs.GetBool(name)
	return b
}

// strings returns a repeatable option's values, nil when none was given.
func (v flagValues) strings(name string) []string {
	// The values as given: pflag's GetStringArray reads them back through
	// encoding/csv, which turns a CR LF into LF (another group's name).
	f := v.lookup(name)
	if f == nil {
		return nil
	}
	sv, ok := f.Value.(pflag.SliceValue)
	if !ok {
		return nil
	}
	if s := sv.GetSlice(); len(s) > 0 {
		return s
	}
	return nil
}

// given returns a string option's value, nil when it was not given.
func (v flagValues) given(name string) *string {
	if !v.set(name) {
		return nil
	}
	s := v.string(name)
	return &s
}

func (v flagValues) string(name string) string {
	if v.lookup(name) == nil {
		return ""
	}
	s, _ := v.fs.GetString(name)
	return s
}

// optional returns whether an optionalFlag was given and its value, nil
// when it was given without one.
func (v flagValues) optional(name string) (given bool, value *string) {
	if !v.set(name) {
		return false, nil
	}
	s := v.fs.Lookup(name).Value.String()
	if s == optionalNoValue {
		return true, nil
	}
	return true, &s
}

// optionalFlagNames are the options of vbs that take an optional value,
// for joinOptionalArgs.
func optionalFlagNames(vbs []*verb) []string {
	var names []string
	for _, vb := range vbs {
		for _, f := range vb.flags {
			if f.kind == optionalFlag && !slices.Contains(names, f.name) {
				names = append(names, f.name)
			}
		}
	}
	return names
}

// joinOptionalArgs gives pflag the options that take an optional value in
// the = form, as joptsimple reads them: "--state VALUE" becomes
// "--state=VALUE" when VALUE is not an option, and a "--state" without a
// value "--state=" plus optionalNoValue. The word a shell completion asks
// about (the last of cobra's __complete request) is left as it is.
func joinOptionalArgs(args []string) []string {
	return joinOptionalArgsOf(args, verbs())
}

// joinOptionalArgsOf is joinOptionalArgs for the options of vbs (a run's
// own verbs: making the declarations a second time cost its start-up).
func joinOptionalArgsOf(args []string, vbs []*verb) []string {
	names := optionalFlagNames(vbs)
	// Never nil: cobra reads os.Args when given nil.
	out := append([]string{}, args...)
	end := len(out)
	if len(out) > 0 && (out[0] == cobra.ShellCompRequestCmd || out[0] == cobra.ShellCompNoDescRequestCmd) {
		end--
	}
	for i := 0; i < end; i++ {
		if out[i] == "--" {
			break
		}
		name, ok := strings.CutPrefix(out[i], "--")
		if !ok || !slices.Contains(names, name) {
			continue
		}
		if i+1 < len(out) && !strings.HasPrefix(out[i+1], "-") {
			out = slices.Replace(out, i, i+2, out[i]+"="+out[i+1])
			end--
		} else {
			out[i] += "=" + optionalNoValue
		}
	}
	return out
}

// changed reports whether the user set a flag on the command line.
func changed(fs *pflag.FlagSet, name string) bool {
	return flagValues{fs: fs}.set(name)
}
