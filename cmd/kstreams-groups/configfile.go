package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/javaprops"
)

// Config is the typed configuration of one invocation. Precedence, highest
// first (docs/configuration.md):
//
//  1. flags
//  2. KSTREAMS_GROUPS_* environment variables
//  3. the chosen profile of the config file (--profile,
//     KSTREAMS_GROUPS_PROFILE or the file's top-level "profile" key)
//  4. the top-level keys of the config file
//  5. defaults
type Config struct {
	// Bootstrap lists the bootstrap servers as given; newAdmin checks them
	// (parseBootstrap) when the client is built, as Kafka's client does.
	Bootstrap []string
	// BootstrapOrigin names where Bootstrap came from, for its errors.
	BootstrapOrigin   string
	Timeout           time.Duration
	Output            format.Output
	DetailedExitCodes bool
	// Debug logs every request and response on stderr (--debug).
	Debug bool
	// Profile is the profile in use, "" for none.
	Profile string
	// Client says where the Kafka client properties come from; they are
	// read when the first client is built, after the options were
	// validated, as kafka-streams-groups.sh reads --command-config.
	Client ClientSource
	// File is the config file that was read, if any.
	File string
}

// ClientSource is the origin of the Kafka client properties: a properties
// file, inline properties from the config file, or both (the inline ones
// override the file's key by key). The zero value means PLAINTEXT with
// defaults.
type ClientSource struct {
	// Path is a Java properties file (--command-config or a config file's
	// command-config).
	Path string
	// Inline holds a config file's client-properties.
	Inline map[string]string
	// Origin names the layer in messages, e.g. `--command-config` or
	// `profile "prod" in /home/me/.config/kstreams-groups/config.yaml`.
	Origin string
	// BaseDir resolves relative ssl.*.location values of Inline.
	BaseDir string
}

// scalarKeys are the keys that are a flag, an environment variable
// (KSTREAMS_GROUPS_ + upper case, - as _) and a config file key, both at the
// top level and in a profile.
var scalarKeys = []string{"bootstrap-server", "timeout", "detailed-exit-codes", "output", "debug", "command-config"}

// Config file keys beyond scalarKeys.
const (
	keyProfile          = "profile"
	keyProfiles         = "profiles"
	keyClientProperties = "client-properties"
)

// configFile is a parsed config file.
type configFile struct {
	path     string
	top      map[string]any
	profiles map[string]map[string]any
	// lines and profileLines hold the line of each key, for messages.
	lines        map[string]int
	profileLines map[string]map[string]int
}

// maxTimeout is the largest --timeout in milliseconds: the longest
// time.Duration (about 292 years).
const maxTimeout = math.MaxInt64 / int64(time.Millisecond)

// loadConfig resolves Config from the parsed flags, the environment and the
// config file. It runs before every command.
func (a *app) loadConfig(cmd *cobra.Command) error {
	cfg, err := resolveConfig(cmd, a.deps.env, nil)
	if err != nil {
		return err
	}
	a.cfg = cfg
	return nil
}

// resolveConfig resolves a Config; profile, when not nil, is the profile
// to use instead of the one --profile, the environment or the file name
// (serve resolves one Config per --profile given).
func resolveConfig(cmd *cobra.Command, env environ, profile *string) (Config, error) {
	var cfg Config
	r, err := newResolver(cmd, env, profile)
	if err != nil {
		return cfg, err
	}
	if r.cf != nil {
		cfg.File = r.cf.path
	}
	cfg.Profile = r.profile
	bootstrap, from := r.get("bootstrap-server")
	cfg.Bootstrap = splitServers(text(bootstrap))
	switch cfg.BootstrapOrigin = from.place; from.layer {
	case fromFlag, fromDefault:
		cfg.BootstrapOrigin = "--bootstrap-server"
	case fromFile, fromProfile:
		cfg.BootstrapOrigin += ": bootstrap-server"
	}
	if cfg.Timeout, from, err = r.timeout("timeout"); err != nil {
		return cfg, usageErrorf("%sinvalid timeout %v: %v", from.prefix(), r.v.Get("timeout"), err)
	}
	if cfg.DetailedExitCodes, from, err = r.boolean("detailed-exit-codes"); err != nil {
		return cfg, usageErrorf("%sinvalid detailed-exit-codes %v: want true or false", from.prefix(), r.v.Get("detailed-exit-codes"))
	}
	if cfg.Debug, from, err = r.boolean("debug"); err != nil {
		return cfg, usageErrorf("%sinvalid debug %v: want true or false", from.prefix(), r.v.Get("debug"))
	}
	output, from := r.get("output")
	out, err := format.ParseOutput(text(output))
	if err != nil {
		if from.place != "" {
			return cfg, usageErrorf("%s%v", from.prefix(), err)
		}
		return cfg, &usageError{err: err}
	}
	cfg.Output = out
	cfg.Client = clientSource(cmd, r.env, r.cf, r.profile, r.profileKeys)
	return cfg, nil
}

// resolver gives a setting's value, merged by viper (the layers in
// Config's order), and the layer it came from.
type resolver struct {
	v   *viper.Viper
	cmd *cobra.Command
	env environ
	cf  *configFile
	// profile is the profile in use ("" for none), profileKeys its keys.
	profile     string
	profileKeys map[string]any
}

// newResolver layers cmd's parsed flags, the environment, the config
// file and its profile (profile, when not nil, instead of the one
// --profile, the environment or the file names).
func newResolver(cmd *cobra.Command, env environ, profile *string) (*resolver, error) {
	v := viper.New()
	for _, k := range append(slices.Clone(scalarKeys), keyProfile) {
		if err := v.BindPFlag(k, cmd.Flags().Lookup(k)); err != nil {
			return nil, err
		}
		// The environment layer, from the injected environment rather
		// than viper's AutomaticEnv (the process's): set over the file
		// layers, and only where no flag was given, so that a flag stays
		// above it. viper ignores an empty variable, as this does.
		if e := env.get(envName(k)); e != "" && !changed(cmd.Flags(), k) {
			v.Set(k, e)
		}
	}
	cf, err := readConfigFile(cmd, env)
	if err != nil {
		return nil, err
	}
	if cf != nil {
		if err := v.MergeConfigMap(scalars(cf.top)); err != nil {
			return nil, usageErrorf("config file %s: %v", cf.path, err)
		}
	}
	r := &resolver{v: v, cmd: cmd, env: env, cf: cf, profile: strings.TrimSpace(v.GetString(keyProfile))}
	if profile != nil {
		r.profile = strings.TrimSpace(*profile)
	}
	if r.profile == "" {
		return r, nil
	}
	if cf == nil {
		looked, _ := configPath(cmd, env)
		return nil, usageErrorf("profile %q: no config file (looked for %s; use --config)", r.profile, looked)
	}
	p, ok := cf.profiles[r.profile]
	if !ok {
		return nil, usageErrorf("profile %q is not in %s (profiles: %s)", r.profile, cf.path, profileNames(cf))
	}
	r.profileKeys = p
	if err := v.MergeConfigMap(scalars(p)); err != nil {
		return nil, usageErrorf("config file %s: %v", cf.path, err)
	}
	return r, nil
}

// layer is where a setting's value came from, highest first (Config).
type layer int

const (
	fromFlag layer = iota
	fromEnv
	fromProfile
	fromFile
	fromDefault
)

// origin is a setting's layer and, for a message about its value, its
// place: the environment variable or the config file's line (with the
// profile); "" for a flag or the default, which the command line shows.
type origin struct {
	layer layer
	place string
}

// prefix is the place as the start of a message about the value.
func (o origin) prefix() string {
	if o.place == "" {
		return ""
	}
	return o.place + ": "
}

func (r *resolver) get(key string) (any, origin) {
	return r.v.Get(key), r.origin(key)
}

func (r *resolver) origin(key string) origin {
	if changed(r.cmd.Flags(), key) {
		return origin{layer: fromFlag}
	}
	if env := envName(key); r.env.get(env) != "" {
		return origin{fromEnv, env}
	}
	if r.cf == nil {
		return origin{layer: fromDefault}
	}
	if line, ok := r.cf.profileLines[r.profile][key]; ok && r.profile != "" {
		return origin{fromProfile, fmt.Sprintf("config file %s: line %d: profile %q", r.cf.path, line, r.profile)}
	}
	if line, ok := r.cf.lines[key]; ok {
		return origin{fromFile, fmt.Sprintf("config file %s: line %d", r.cf.path, line)}
	}
	return origin{layer: fromDefault}
}

// text is a scalar setting as a string; YAML's null is "".
func text(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// Typed settings come as strings from the environment, typed from YAML
// and from flags (viper gives an int or a bool). A string is trimmed and
// decimal, as in Kafka's tools (010 is 10, not octal); a fraction, true or
// false for a number and a number for a boolean are refused.

// wholeNumber reads key as a whole number.
func (r *resolver) wholeNumber(key string) (n int64, from origin, err error) {
	v, from := r.get(key)
	switch x := v.(type) {
	case string:
		n, err = strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	case int:
		n = int64(x)
	case int64:
		n = x
	case uint64:
		if x > math.MaxInt64 {
			err = fmt.Errorf("out of range: %v", x)
		}
		n = int64(x)
	case float64:
		if x != math.Trunc(x) || math.Abs(x) >= 1<<63 {
			err = fmt.Errorf("not a whole number: %v", x)
		}
		n = int64(x)
	default:
		err = fmt.Errorf("not a number: %v", x)
	}
	return n, from, err
}

// timeout reads key as a timeout: Kafka's whole number of milliseconds,
// or a Go duration (10s, 500ms, 1m); at least a millisecond. Its errors say
// what is wanted, never the parser's internals.
func (r *resolver) timeout(key string) (time.Duration, origin, error) {
	const want = "want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"
	v, from := r.get(key)
	if s, ok := v.(string); ok {
		if s = strings.TrimSpace(s); s == "" || strings.Trim(s, "0123456789") != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d < time.Millisecond {
				return 0, from, errors.New(want)
			}
			return d, from, nil
		}
	}
	ms, _, err := r.wholeNumber(key)
	var ne *strconv.NumError
	switch {
	case errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange), err == nil && ms > maxTimeout:
		// time.Duration(ms) * time.Millisecond would wrap around.
		return 0, from, fmt.Errorf("want at most %d ms (the largest duration)", maxTimeout)
	case err != nil || ms <= 0:
		return 0, from, errors.New(want)
	}
	return time.Duration(ms) * time.Millisecond, from, nil
}

// boolean reads key as true or false, spelled as strconv.ParseBool takes
// them.
func (r *resolver) boolean(key string) (b bool, from origin, err error) {
	v, from := r.get(key)
	switch x := v.(type) {
	case string:
		b, err = strconv.ParseBool(strings.TrimSpace(x))
	case bool:
		b = x
	default:
		err = fmt.Errorf("not a boolean: %v", x)
	}
	return b, from, err
}

// clientSource picks the client properties of the highest layer that sets
// any: the --command-config flag, KSTREAMS_GROUPS_COMMAND_CONFIG, the
// profile (command-config and/or client-properties), the config file's top
// level. Layers are not mixed, so a --command-config given for one run
// replaces the profile's security settings whole.
func clientSource(cmd *cobra.Command, env environ, cf *configFile, name string, profile map[string]any) ClientSource {
	if changed(cmd.Flags(), "command-config") {
		return ClientSource{Path: cmd.Flags().Lookup("command-config").Value.String(), Origin: "--command-config"}
	}
	if p := env.get("KSTREAMS_GROUPS_COMMAND_CONFIG"); p != "" {
		return ClientSource{Path: p, Origin: "KSTREAMS_GROUPS_COMMAND_CONFIG"}
	}
	if cf == nil {
		return ClientSource{}
	}
	layer := func(m map[string]any, origin string) (ClientSource, bool) {
		path, _ := m["command-config"].(string)
		inline, _ := m[keyClientProperties].(map[string]string)
		if path == "" && inline == nil {
			return ClientSource{}, false
		}
		dir := filepath.Dir(cf.path)
		if path != "" {
			path = expandPath(path, dir, env)
		}
		return ClientSource{Path: path, Inline: inline, Origin: origin, BaseDir: dir}, true
	}
	if profile != nil {
		if s, ok := layer(profile, fmt.Sprintf("profile %q in %s", name, cf.path)); ok {
			return s
		}
	}
	s, _ := layer(cf.top, cf.path)
	return s
}

// expandPath resolves a config file's path value: ~/ is the home directory
// and a relative path is relative to the config file.
func expandPath(p, dir string, env environ) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := env.homeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(dir, p)
	}
	return p
}

// scalars returns the keys of m that viper layers (everything but the
// client properties, whose dotted keys viper would split).
func scalars(m map[string]any) map[string]any {
	out := maps.Clone(m)
	delete(out, keyClientProperties)
	delete(out, keyProfiles)
	return out
}

func profileNames(cf *configFile) string {
	if len(cf.profiles) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(cf.profiles)), ", ")
}

// readConfigFile reads --config, KSTREAMS_GROUPS_CONFIG or the default
// location; a missing default file is no error.
func readConfigFile(cmd *cobra.Command, env environ) (*configFile, error) {
	path, explicit := configPath(cmd, env)
	if path == "" {
		return nil, nil
	}
	data, err := configInput.readFile(cmd.Context(), "config file "+path, path)
	if !explicit && errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err := asUsage(err, "cannot read config file: "); err != nil {
		return nil, err
	}
	cf, err := parseConfigFile([]byte(data))
	if err != nil {
		return nil, usageErrorf("config file %s: %s", path, withLine(err))
	}
	cf.path = path
	return cf, nil
}

// configPath is the config file's path: --config, KSTREAMS_GROUPS_CONFIG
// (explicit) or the default location.
func configPath(cmd *cobra.Command, env environ) (path string, explicit bool) {
	if p := cmp.Or(cmd.Flags().Lookup("config").Value.String(), env.get("KSTREAMS_GROUPS_CONFIG")); p != "" {
		return p, true
	}
	return defaultConfigPath(env), false
}

func defaultConfigPath(env environ) string {
	dir := env.get("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := env.homeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "kstreams-groups", "config.yaml")
}

// withLine is a config file error with its line: yaml.v3 leaves it out on
// the first line (its marks count from 0, and 0 means none). An error that
// names its line already (`profile "p": line 5: ...`) is kept.
func withLine(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if !namesLine().MatchString(msg) {
		msg = "line 1: " + msg
	}
	return msg
}

var namesLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|: )line \d+: `) })

// unreadable finds what yaml.v3's reader refuses before it knows a line
// (a byte that is not UTF-8, a control character), and says where.
func unreadable(data []byte) error {
	line := 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Errorf("line %d: not UTF-8 text (byte %#x)", line, data[i])
		case r == '\n':
			line++
		case r == '\t', r == '\r', r >= 0x20 && r <= 0x7e, r == 0x85, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000:
		default:
			return fmt.Errorf("line %d: the control character %U is not allowed in YAML", line, r)
		}
		i += n
	}
	return nil
}

// parseConfigFile checks the config file's shape and rejects keys the tool
// does not know and keys given twice, with their line, so a typo does not
// silently fall back to a default and a second value does not silently
// win.
func parseConfigFile(data []byte) (*configFile, error) {
	if err := unreadable(data); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	cf := &configFile{top: map[string]any{}, profiles: map[string]map[string]any{},
		lines: map[string]int{}, profileLines: map[string]map[string]int{}}
	if len(doc.Content) == 0 {
		return cf, nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want a mapping of keys to values at the top level", m.Line)
	}
	topKeys := append(slices.Clone(scalarKeys), keyClientProperties, keyProfile, keyProfiles)
	lines, err := mappingPairs(m, "", "key", topKeys, func(k, val *yaml.Node) error {
		if k.Value == keyProfiles {
			return parseProfiles(val, cf)
		}
		x, err := configValue(k, val)
		if err != nil {
			return err
		}
		cf.top[k.Value] = x
		return nil
	})
	if err != nil {
		return nil, err
	}
	cf.lines = lines
	return cf, nil
}

func parseProfiles(n *yaml.Node, cf *configFile) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: profiles: want a mapping of profile names to settings", n.Line)
	}
	profileKeys := append(slices.Clone(scalarKeys), keyClientProperties)
	_, err := mappingPairs(n, "", "profile", nil, func(name, body *yaml.Node) error {
		if body.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: profile %q: want a mapping of keys to values", body.Line, name.Value)
		}
		p := map[string]any{}
		lines, err := mappingPairs(body, fmt.Sprintf("profile %q: ", name.Value), "key", profileKeys, func(k, val *yaml.Node) error {
			x, err := configValue(k, val)
			if err != nil {
				return fmt.Errorf("profile %q: %w", name.Value, err)
			}
			p[k.Value] = x
			return nil
		})
		if err != nil {
			return err
		}
		cf.profiles[name.Value], cf.profileLines[name.Value] = p, lines
		return nil
	})
	return err
}

// mappingPairs calls each for the keys and values of the mapping n in
// order, and returns the line of each key. A key given twice is an error
// naming both lines, and so, when known is set, is a key not in it; where
// begins those messages (`profile "p": `) and what names a key ("key",
// "profile", "property"). Every level of the config file is read with it.
func mappingPairs(n *yaml.Node, where, what string, known []string, each func(k, v *yaml.Node) error) (map[string]int, error) {
	lines := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if first, dup := lines[k.Value]; dup {
			return nil, fmt.Errorf("line %d: %sduplicate %s %q (first at line %d)", k.Line, where, what, k.Value, first)
		}
		if known != nil && !slices.Contains(known, k.Value) {
			return nil, fmt.Errorf("line %d: %sunknown %s %q (known: %s)", k.Line, where, what, k.Value, strings.Join(known, ", "))
		}
		lines[k.Value] = k.Line
		if err := each(k, v); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// configValue decodes one value: client-properties is a flat mapping of
// property names to scalars, everything else a scalar.
func configValue(k, val *yaml.Node) (any, error) {
	if k.Value == keyClientProperties {
		if val.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: %s: want a mapping of Kafka client property names to values", val.Line, k.Value)
		}
		props := map[string]string{}
		_, err := mappingPairs(val, k.Value+": ", "property", nil, func(pk, pv *yaml.Node) error {
			if pv.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: %s: %s: want a single value", pv.Line, k.Value, pk.Value)
			}
			props[pk.Value] = pv.Value
			return nil
		})
		if err != nil {
			return nil, err
		}
		return props, nil
	}
	if val.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("line %d: %s: want a single value", val.Line, k.Value)
	}
	var x any
	if err := val.Decode(&x); err != nil {
		return nil, fmt.Errorf("line %d: %s: %w", val.Line, k.Value, err)
	}
	return x, nil
}

// properties reads the client properties of c: the file first, then
// the inline properties over it. Problems are usage errors that name the
// file and line.
func (c ClientSource) properties(ctx context.Context) (javaprops.Properties, clientconfig.Options, error) {
	var props javaprops.Properties
	opts := clientconfig.Options{Source: c.Origin}
	if c.Path != "" {
		data, err := propertiesInput.readFile(ctx, "client properties "+c.Path+" ("+c.Origin+")", c.Path)
		if err := asUsage(err, "cannot read client properties ("+c.Origin+"): "); err != nil {
			return props, opts, err
		}
		if i := strings.IndexByte(data, 0); i >= 0 {
			return props, opts, usageErrorf("client properties %s: line %d holds a NUL byte: is the file UTF-16? Kafka reads a properties file as ISO-8859-1 (save it as ASCII or Latin-1)",
				c.Path, 1+strings.Count(data[:i], "\n"))
		}
		if props, err = javaprops.ParseBytes([]byte(data)); err != nil {
			return props, opts, usageErrorf("client properties %s: %v", c.Path, err)
		}
		opts.Source = c.Path
	}
	if c.Inline != nil {
		props = props.Merge(javaprops.FromMap(c.Inline))
		opts.BaseDir = c.BaseDir
		if c.Path != "" {
			opts.Source = c.Path + " with client-properties of " + c.Origin
		}
	}
	return props, opts, nil
}
