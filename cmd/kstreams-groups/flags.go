package main

// Each verb declares its options once, in a flag table (describe.go,
// list.go, delete.go, ...). Both command forms register from those tables:
// the root command (the kafka-streams-groups.sh form) takes the union of
// every verb's options with the Java tool's help texts, and each subcommand
// takes its own verb's options with friendlier help. Parsed values are read
// back through the options' typed handles, so a verb builds the same
// options struct from either form and validation runs once, in validate
// (verbs.go).

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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
	// kind is set by the handle's constructor (boolOption, ...).
	kind flagKind
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
	// on is a boolFlag's default: true for an option that is on unless
	// turned off (--time-lag=false).
	on bool
}

// optionalNoValue is what an optionalFlag holds when given without a value
// (joinOptionalArgsOf writes it): NUL, which no argument can hold.
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
		fs.BoolP(f.name, f.short, f.on, help)
	case stringsFlag:
		fs.StringArray(f.name, nil, help)
	case optionalFlag:
		fs.Var(&optionalValue{name: f.valueName}, f.name, help)
	case stringFlag:
		fs.String(f.name, "", help)
	}
}

// The typed handles of options. A verb declares each option once as a
// handle (boolOption, stringOption, ...), lists the handles in its table
// and reads each value back through its handle: the value's type is the
// handle's, and a name is spelt once, where it is declared. A verb's own
// options are local to its declaration, so another verb cannot read them;
// a shared handle (groupFlag, dryRunFlag) read by a verb whose table lacks
// it is told to flagValues.undeclared, which the command tests turn into a
// failure.
type (
	boolOpt     struct{ flagDef }
	stringOpt   struct{ flagDef }
	stringsOpt  struct{ flagDef }
	optionalOpt struct{ flagDef }
)

// declared is any handle, as a verb's table lists it.
type declared interface{ def() flagDef }

func (f flagDef) def() flagDef { return f }

// table is a flag table from the handles of its options, in help order.
func table(opts ...declared) []flagDef {
	defs := make([]flagDef, len(opts))
	for i, o := range opts {
		defs[i] = o.def()
	}
	return defs
}

func boolOption(f flagDef) boolOpt {
	f.kind = boolFlag
	return boolOpt{f}
}

func stringOption(f flagDef) stringOpt {
	f.kind = stringFlag
	return stringOpt{f}
}

// stringsOption is a repeatable option (--group a --group b).
func stringsOption(f flagDef) stringsOpt {
	f.kind = stringsFlag
	return stringsOpt{f}
}

// optionalOption is an option with an optional value (--state or
// --state=V).
func optionalOption(f flagDef) optionalOpt {
	f.kind = optionalFlag
	return optionalOpt{f}
}

// withHelp is the handle with another subcommand help, for a verb that
// shares the option (and its Kafka help) with others.
func (o boolOpt) withHelp(help string) boolOpt       { o.help = help; return o }
func (o stringsOpt) withHelp(help string) stringsOpt { o.help = help; return o }
func (o optionalOpt) withHelp(help string) optionalOpt {
	o.help = help
	return o
}

// set reports whether the option was given on the command line.
func (f flagDef) set(v flagValues) bool {
	pf := v.lookup(f)
	return pf != nil && pf.Changed
}

func (o boolOpt) get(v flagValues) bool {
	f := v.lookup(o.flagDef)
	return f != nil && f.Value.String() == "true"
}

// get returns a repeatable option's values, nil when none was given.
func (o stringsOpt) get(v flagValues) []string {
	// The values as given: pflag's GetStringArray reads them back through
	// encoding/csv, which turns a CR LF into LF (another group's name).
	f := v.lookup(o.flagDef)
	if f == nil {
		return nil
	}
	if s := f.Value.(pflag.SliceValue).GetSlice(); len(s) > 0 {
		return s
	}
	return nil
}

func (o stringOpt) get(v flagValues) string {
	f := v.lookup(o.flagDef)
	if f == nil {
		return ""
	}
	return f.Value.String()
}

// given returns the option's value, nil when it was not given.
func (o stringOpt) given(v flagValues) *string {
	if !o.set(v) {
		return nil
	}
	s := o.get(v)
	return &s
}

// parsedOpt is an option whose value is parsed, with the verb's own
// messages (check's counts and durations: check.ParseCount). Its flag stays
// a string, so that a refusal is the verb's message, not pflag's.
type parsedOpt[T any] struct {
	stringOpt
	parse func(option, s string) (T, error)
}

func parsedOption[T any](f flagDef, parse func(option, s string) (T, error)) parsedOpt[T] {
	return parsedOpt[T]{stringOption(f), parse}
}

// value is the option's parsed value (what parse returns, also with an
// error) and whether it was given.
func (o parsedOpt[T]) value(v flagValues) (T, bool, error) {
	s := o.given(v)
	if s == nil {
		var zero T
		return zero, false, nil
	}
	t, err := o.parse(o.name, *s)
	return t, true, err
}

// boundedOpt is an option whose value is a whole number (intOpt) or a
// duration (durationOpt) of at least min: a value that does not parse or
// is below min is refused with bad, a message with a %q for the value as
// given. parse is a plain function, not a closure: the package's own
// options are made at init, whose allocations have a budget
// (TestStartup_initBudget).
type boundedOpt[T int | time.Duration] struct {
	stringOpt
	parse func(string) (T, error)
	min   T
	bad   string
}

type (
	durationOpt = boundedOpt[time.Duration]
	intOpt      = boundedOpt[int]
)

// anyDuration is the min of a duration option that takes any duration.
const anyDuration = time.Duration(math.MinInt64)

func durationOption(f flagDef, min time.Duration, bad string) durationOpt {
	return durationOpt{stringOption(f), time.ParseDuration, min, bad}
}

func intOption(f flagDef, min int, bad string) intOpt {
	return intOpt{stringOption(f), strconv.Atoi, min, bad}
}

// value is the option's value and whether it was given; the error is a
// usage error's.
func (o boundedOpt[T]) value(v flagValues) (T, bool, error) {
	s := o.given(v)
	if s == nil {
		return 0, false, nil
	}
	n, err := o.parse(strings.TrimSpace(*s))
	if err != nil || n < o.min {
		return 0, true, fmt.Errorf(o.bad, *s)
	}
	return n, true, nil
}

// or is the option's value, def when it was not given.
func (o boundedOpt[T]) or(v flagValues, def T) (T, error) {
	if t, given, err := o.value(v); given {
		return t, err
	}
	return def, nil
}

// get returns whether the option was given and its value, nil when it was
// given without one.
func (o optionalOpt) get(v flagValues) (given bool, value *string) {
	if !o.set(v) {
		return false, nil
	}
	s := v.fs.Lookup(o.name).Value.String()
	if s == optionalNoValue {
		return true, nil
	}
	return true, &s
}

// flagValues are the parsed options of one command line, read through the
// handles, and its positional arguments (for a verb that takes some, such
// as diff).
type flagValues struct {
	fs   *pflag.FlagSet
	args []string
	// undeclared, when set, is told of every read of an option the flag
	// set does not have, or has with another kind: it reads as "not
	// given", so the command tests (deps.undeclared, and
	// TestVerbParse_readsOnlyItsFlags for every verb) fail on it. Reads of
	// other verbs' options (sharedChecks, the Kafka form's checks in a
	// verb) go through lenient.
	undeclared func(name string)
}

// lenient is v for reading the options of other verbs, which a
// subcommand does not have: absent means not given.
func (v flagValues) lenient() flagValues {
	v.undeclared = nil
	return v
}

// lookup is the parsed flag of f, nil (and undeclared told) when the flag
// set has none of that name and kind.
func (v flagValues) lookup(f flagDef) *pflag.Flag {
	if v.fs == nil {
		return nil
	}
	pf := v.fs.Lookup(f.name)
	if pf != nil && kindOf(pf) != f.kind {
		pf = nil
	}
	if pf == nil && v.undeclared != nil {
		v.undeclared(f.name)
	}
	return pf
}

// kindOf is the kind of a registered flag (register's inverse); -1 for a
// flag that register does not make (the root's --timeout, an int).
func kindOf(f *pflag.Flag) flagKind {
	if _, ok := f.Value.(*optionalValue); ok {
		return optionalFlag
	}
	switch f.Value.Type() {
	case "bool":
		return boolFlag
	case "stringArray":
		return stringsFlag
	case "string":
		return stringFlag
	}
	return -1
}

// optionalFlagNames are the options of vbs that take an optional value,
// for joinOptionalArgsOf.
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

// joinOptionalArgsOf gives pflag the options of vbs that take an optional
// value in the = form, as joptsimple reads them: "--state VALUE" becomes
// "--state=VALUE" when VALUE is not an option, and a "--state" without a
// value "--state=" plus optionalNoValue. The word a shell completion asks
// about (the last of cobra's __complete request) is left as it is. vbs are
// a run's own verbs: making the declarations a second time cost its
// start-up.
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
	f := fs.Lookup(name)
	return f != nil && f.Changed
}
