package groupconfig

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// Mode is what an invocation does.
type Mode int

// The modes.
const (
	// Describe shows the configs.
	Describe Mode = iota
	// DryRun asks the broker to validate the changes without applying them.
	DryRun
	// Execute applies the changes and reads the configs back.
	Execute
)

func (m Mode) String() string {
	switch m {
	case DryRun:
		return "dry_run"
	case Execute:
		return "execute"
	}
	return "describe"
}

// Options select the groups and the changes.
type Options struct {
	Groups    []string
	AllGroups bool
	// Set are the --set values as given, KEY=VALUE.
	Set []string
	// DeleteConfigs are the keys of --delete-config.
	DeleteConfigs []string
	// DryRun and Execute: exactly one when there are changes, neither
	// without.
	DryRun, Execute bool
	// Dynamic shows only the configs set on the group, as
	// kafka-configs.sh --describe does.
	Dynamic bool
}

// Mode is the mode the options ask for.
func (o Options) Mode() Mode {
	switch {
	case o.Execute:
		return Execute
	case o.DryRun:
		return DryRun
	}
	return Describe
}

// Validate checks the options before anything connects: the groups, the
// changes (each key a group config of Kafka 4.4, each once) and that a
// change names exactly one of --dry-run and --execute, as the offset verbs
// ask for theirs.
func (o Options) Validate() error {
	if !o.AllGroups && len(o.Groups) == 0 {
		return errors.New("Option [config] takes one of these options: [all-groups], [group]")
	}
	changes := len(o.Set) > 0 || len(o.DeleteConfigs) > 0
	if _, err := o.Ops(); err != nil {
		return err
	}
	switch {
	case !changes && (o.DryRun || o.Execute):
		return errors.New("--dry-run and --execute need a change: --set KEY=VALUE or --delete-config KEY")
	case !changes:
		return nil
	case o.AllGroups:
		return errors.New("--set and --delete-config change the groups named with --group, not --all-groups")
	case o.Dynamic:
		return errors.New("--dynamic is for showing configs: leave it out with --set or --delete-config")
	case o.DryRun && o.Execute:
		return errors.New("Option [config] only accepts one of [execute] and [dry-run]")
	case !o.DryRun && !o.Execute:
		return errors.New("Option [config] with --set or --delete-config takes the option: [execute] or [dry-run]")
	}
	return nil
}

// Ops parses the changes: the --set values, then the --delete-config keys.
func (o Options) Ops() ([]admin.ConfigOp, error) {
	var ops []admin.ConfigOp
	seen := map[string]bool{}
	add := func(name string, value *string) error {
		if err := checkKey(name); err != nil {
			return err
		}
		if seen[name] {
			return fmt.Errorf("group config %q is changed twice", name)
		}
		seen[name] = true
		ops = append(ops, admin.ConfigOp{Name: name, Value: value})
		return nil
	}
	for _, s := range o.Set {
		name, value, ok := strings.Cut(s, "=")
		if !ok {
			return nil, fmt.Errorf("--set %q: want KEY=VALUE", s)
		}
		if err := add(strings.TrimSpace(name), &value); err != nil {
			return nil, err
		}
	}
	for _, name := range o.DeleteConfigs {
		if err := add(strings.TrimSpace(name), nil); err != nil {
			return nil, err
		}
	}
	return ops, nil
}

// checkKey refuses a key that is not a group config of Kafka 4.4, pointing
// at the group config meant when it can tell: the broker's default of one,
// or a Kafka Streams application config (which the streams protocol
// ignores, FINDINGS F185).
func checkKey(name string) error {
	if name == "" {
		return errors.New("a group config name is empty")
	}
	if _, ok := kafka.LookupGroupConfigKey(name); ok {
		return nil
	}
	if k, ok := kafka.GroupConfigKeyFor(name); ok {
		return fmt.Errorf("%q is the broker's default, not a group config: the group's own is %q", name, k.Name)
	}
	if k, ok := kafka.LookupGroupConfigKey("streams." + name); ok {
		return fmt.Errorf("%q is not a group config: under the streams protocol the broker ignores the application's %s; the group's config is %q", name, name, k.Name)
	}
	for _, k := range kafka.GroupConfigKeys {
		if strings.EqualFold(k.Name, name) {
			return fmt.Errorf("%q is not a group config (names are case-sensitive): did you mean %q?", name, k.Name)
		}
	}
	return fmt.Errorf("%q is not a group config of Apache Kafka 4.4 (kstreams-groups config --group G shows them)", name)
}

// Client is what Run needs from the admin client.
type Client interface {
	ListStreamsGroups(ctx context.Context) ([]admin.ListedGroup, error)
	DescribeGroupConfigs(ctx context.Context, groups []string) []kafka.GroupConfigs
	AlterGroupConfigs(ctx context.Context, alters []admin.GroupConfigAlter, validateOnly bool) []admin.AlteredGroupConfig
}

// Result holds one Group per requested group, in request order (a repeated
// group once; --all-groups: sorted).
type Result struct {
	Mode    Mode
	Dynamic bool
	Groups  []*Group
}

// Group is one group's configs and, with changes, their outcome.
type Group struct {
	Group string
	// Configs are the group's configs: as described (Describe, DryRun:
	// before the change) or as read back after it (Execute), streams keys
	// first.
	Configs []kafka.GroupConfigEntry
	// Unreported are the streams keys the broker did not answer: the
	// internal ones a 4.4.0 broker reports only when the group sets them
	// (FINDINGS F401).
	Unreported []kafka.GroupConfigKey
	// Changes are the requested changes with the values before and after
	// (DryRun: what the value would become; not Known when the changes
	// were refused or not read back).
	Changes []Change
	// Err is why the group's configs could not be described, or why the
	// broker refused the changes (nothing was changed then).
	Err error
	// Applied tells that --execute changed the group's configs.
	Applied bool
	// ReadBackErr is why the configs could not be read back after they
	// were applied.
	ReadBackErr error
}

// Setting is a config's value and its source; Known is false when the
// broker does not report it (an internal key the group does not set).
type Setting struct {
	Value  *string
	Source kafka.ConfigSource
	// Name is the config the value comes from: the key itself when set on
	// the group, else its broker synonym.
	Name  string
	Known bool
}

// Change is one requested change.
type Change struct {
	Name string
	// Value is the value set; nil for --delete-config.
	Value         *string
	Before, After Setting
}

// Failures lists, in request order, the groups whose configs could not be
// described or changed, or read back after a change.
func (r *Result) Failures() []kafka.Failure {
	return kafka.Failures(r.Groups, func(g *Group) (string, error) { return g.Group, cmp.Or(g.Err, g.ReadBackErr) })
}

// Run describes the groups' configs and, with changes, validates or
// applies them.
func Run(ctx context.Context, client Client, opts Options) (*Result, error) {
	ops, err := opts.Ops()
	if err != nil {
		return nil, err
	}
	ids, err := admin.RequestedGroups(ctx, client, opts.Groups, opts.AllGroups)
	if err != nil {
		return nil, err
	}
	res := &Result{Mode: opts.Mode(), Dynamic: opts.Dynamic}
	ids = unique(ids)
	if len(ids) == 0 {
		return res, nil
	}
	byGroup := map[string]*Group{}
	for i, gc := range client.DescribeGroupConfigs(ctx, ids) {
		g := &Group{Group: ids[i]}
		g.fill(gc)
		res.Groups = append(res.Groups, g)
		byGroup[g.Group] = g
	}
	if res.Mode == Describe {
		return res, nil
	}

	var alters []admin.GroupConfigAlter
	for _, g := range res.Groups {
		if g.Err != nil {
			continue // nothing is sent for a group that could not be read
		}
		for _, op := range ops {
			c := Change{Name: op.Name, Value: op.Value, Before: setting(g.Configs, op.Name)}
			c.After = expected(g.Configs, op)
			g.Changes = append(g.Changes, c)
		}
		alters = append(alters, admin.GroupConfigAlter{Group: g.Group, Ops: ops})
	}
	var applied []string
	for _, a := range client.AlterGroupConfigs(ctx, alters, res.Mode == DryRun) {
		g := byGroup[a.Group]
		if a.Err != nil {
			g.Err = a.Err
			for j := range g.Changes {
				g.Changes[j].After = Setting{} // nothing changed
			}
			continue
		}
		if res.Mode == Execute {
			g.Applied = true
			applied = append(applied, g.Group)
		}
	}
	if len(applied) == 0 {
		return res, nil
	}
	for i, gc := range client.DescribeGroupConfigs(ctx, applied) {
		g := byGroup[applied[i]]
		if gc.Err != nil {
			g.ReadBackErr = gc.Err
			g.Configs, g.Unreported = nil, nil // the values before are stale
			for j := range g.Changes {
				g.Changes[j].After = Setting{}
			}
			continue
		}
		g.fill(gc)
		for j := range g.Changes {
			g.Changes[j].After = setting(g.Configs, g.Changes[j].Name)
		}
	}
	return res, nil
}

// fill sets the group's configs from a DescribeConfigs answer.
func (g *Group) fill(gc kafka.GroupConfigs) {
	g.Configs, g.Unreported = nil, nil
	if gc.Err != nil {
		g.Err = gc.Err
		return
	}
	g.Configs = gc.Entries
	for _, k := range kafka.GroupConfigKeys {
		if k.Protocol != "streams" || !k.Internal {
			continue
		}
		if _, ok := gc.Entry(k.Name); !ok {
			g.Unreported = append(g.Unreported, k)
		}
	}
}

// setting is the current value of name among entries.
func setting(entries []kafka.GroupConfigEntry, name string) Setting {
	for _, e := range entries {
		if e.Name == name {
			s := Setting{Value: e.Value, Source: e.Source, Name: e.Name, Known: true}
			if !e.Dynamic() {
				if d, ok := e.Default(); ok {
					s.Name = d.Name
				}
			}
			return s
		}
	}
	return Setting{}
}

// expected is what op makes of name: the value set on the group, or,
// deleted, the broker's default it falls back to (unknown when the
// broker did not report the key).
func expected(entries []kafka.GroupConfigEntry, op admin.ConfigOp) Setting {
	if op.Value != nil {
		return Setting{Value: op.Value, Source: kafka.SourceGroup, Name: op.Name, Known: true}
	}
	for _, e := range entries {
		if e.Name != op.Name {
			continue
		}
		if !e.Dynamic() {
			return setting(entries, op.Name)
		}
		if d, ok := e.Default(); ok {
			return Setting{Value: d.Value, Source: d.Source, Name: d.Name, Known: true}
		}
	}
	return Setting{}
}

// unique returns ids without repeats, in first-seen order.
func unique(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
