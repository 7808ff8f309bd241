package format

// Display rules for config (group configs, issue 22). Each line of a
// config is kafka-configs.sh's (org.apache.kafka.tools.ConfigCommand,
// verified against the real 4.4.0 tool, e2e/FINDINGS.md F400):
//
//	  NAME=VALUE sensitive=false synonyms={SOURCE:NAME=VALUE, ...}
//
// the synonyms most specific first, so the first one's SOURCE is where the
// effective value comes from (DYNAMIC_GROUP_CONFIG: set on the group).
//
//   - config (describe): "All configs for group G are:" and every config
//     the broker answered, streams keys first (kafka-configs.sh --all sorts
//     by name), then one line naming the streams keys the broker does not
//     report while the group does not set them (FINDINGS F401);
//   - config --dynamic: "Dynamic configs for group G are:" and only the
//     configs set on the group, sorted by name: kafka-configs.sh --describe
//     --entity-type groups --entity-name G byte for byte, except for a group
//     that neither exists nor has a config, for which the Java tool prints
//     "The group 'G' doesn't exist and doesn't have dynamic config.";
//   - --dry-run: "Dry run for group G: the broker accepts these changes
//     (nothing was changed):" and one line per change, KEY: BEFORE -> AFTER,
//     a value with its source ("0 (DEFAULT_CONFIG: group.streams.num.
//     standby.replicas)");
//   - --execute: Kafka's "Completed updating config for group G." and the
//     changes as read back from the broker;
//   - a group refused or not read: "Error: ..." with Kafka's error name and
//     the broker's message.
//
// Groups are separated by an empty line. Names, values and messages are
// escaped (escape.go).

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/groupconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
)

// GroupConfigText writes a config result.
func GroupConfigText(w io.Writer, res *groupconfig.Result) error {
	var b strings.Builder
	for i, g := range res.Groups {
		if i > 0 {
			b.WriteString("\n")
		}
		switch res.Mode {
		case groupconfig.Describe:
			writeGroupConfigs(&b, g, res.Dynamic)
		default:
			writeGroupConfigChanges(&b, g, res.Mode)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeGroupConfigs(b *strings.Builder, g *groupconfig.Group, dynamic bool) {
	if g.Err != nil {
		fmt.Fprintf(b, "Error: the configs of group %s could not be described: %s\n", Escape(g.Group), errorLine(g.Err))
		return
	}
	entries := g.Configs
	if dynamic {
		entries = slices.DeleteFunc(slices.Clone(g.Configs), func(e kafka.GroupConfigEntry) bool { return !e.Dynamic() })
		slices.SortFunc(entries, func(a, b kafka.GroupConfigEntry) int { return cmp.Compare(a.Name, b.Name) })
		fmt.Fprintf(b, "Dynamic configs for group %s are:\n", Escape(g.Group))
	} else {
		fmt.Fprintf(b, "All configs for group %s are:\n", Escape(g.Group))
	}
	for _, e := range entries {
		b.WriteString(configLine(e))
	}
	if !dynamic && len(g.Unreported) > 0 {
		fmt.Fprintf(b, "Not reported by the broker unless set on the group (the broker's group.streams.* defaults apply): %s\n", strings.Join(mapAll(g.Unreported, keyName), ", "))
	}
}

// configLine is one config as kafka-configs.sh prints it.
func configLine(e kafka.GroupConfigEntry) string {
	syns := mapAll(e.Synonyms, func(s kafka.ConfigSynonym) string {
		return fmt.Sprintf("%s:%s=%s", s.Source, Escape(s.Name), configValue(s.Value))
	})
	return fmt.Sprintf("  %s=%s sensitive=%t synonyms={%s}\n", Escape(e.Name), configValue(e.Value), e.Sensitive, strings.Join(syns, ", "))
}

// configValue is a value as Java prints it: null for none.
func configValue(v *string) string {
	if v == nil {
		return "null"
	}
	return Escape(*v)
}

func writeGroupConfigChanges(b *strings.Builder, g *groupconfig.Group, mode groupconfig.Mode) {
	switch {
	case g.Err != nil && len(g.Changes) == 0:
		fmt.Fprintf(b, "Error: the configs of group %s could not be described, nothing was changed: %s\n", Escape(g.Group), errorLine(g.Err))
		return
	case g.Err != nil && kafka.Classify(g.Err).Category == kafka.ConfigRefused:
		fmt.Fprintf(b, "Error: the broker refused the changes for group %s, nothing was changed: %s\n", Escape(g.Group), errorLine(g.Err))
		return
	case g.Err != nil:
		fmt.Fprintf(b, "Error: the changes for group %s failed: %s\n", Escape(g.Group), errorLine(g.Err))
		return
	case mode == groupconfig.DryRun:
		fmt.Fprintf(b, "Dry run for group %s: the broker accepts these changes (nothing was changed):\n", Escape(g.Group))
	default:
		fmt.Fprintf(b, "Completed updating config for group %s.\n", Escape(g.Group))
	}
	for _, c := range g.Changes {
		after := settingText(c.After)
		if g.ReadBackErr != nil {
			after = "(not read back)"
		}
		fmt.Fprintf(b, "  %s: %s -> %s\n", Escape(c.Name), settingText(c.Before), after)
	}
	if g.ReadBackErr != nil {
		fmt.Fprintf(b, "Error: the configs of group %s could not be read back: %s\n", Escape(g.Group), errorLine(g.ReadBackErr))
	}
}

// settingText is a value with where it comes from: "1 (DYNAMIC_GROUP_CONFIG)",
// "0 (DEFAULT_CONFIG: group.streams.num.standby.replicas)".
func settingText(s groupconfig.Setting) string {
	if !s.Known {
		return "not reported by the broker"
	}
	v := `""`
	if s.Value == nil {
		v = "null"
	} else if *s.Value != "" {
		v = Escape(*s.Value)
	}
	if s.Source == kafka.SourceGroup || s.Name == "" {
		return fmt.Sprintf("%s (%s)", v, s.Source)
	}
	return fmt.Sprintf("%s (%s: %s)", v, s.Source, Escape(s.Name))
}

// GroupConfigDoc is the JSON and YAML document of config.
type GroupConfigDoc struct {
	// Mode is describe, dry_run or execute.
	Mode   string                `json:"mode" yaml:"mode"`
	Groups []GroupConfigGroupDoc `json:"groups" yaml:"groups"`
}

// GroupConfigGroupDoc is one requested group.
type GroupConfigGroupDoc struct {
	Group string `json:"group" yaml:"group"`
	// Outcome is described, validated (--dry-run), applied (--execute),
	// refused (the broker refused the changes) or failed.
	Outcome string `json:"outcome" yaml:"outcome"`
	// Configs are every config the broker answered (after --execute: as
	// read back), streams keys first; null when they could not be read.
	Configs []GroupConfigEntryDoc `json:"configs" yaml:"configs"`
	// Unreported are the streams keys the broker does not report while
	// the group does not set them.
	Unreported []string               `json:"unreported" yaml:"unreported"`
	Changes    []GroupConfigChangeDoc `json:"changes,omitempty" yaml:"changes,omitempty"`
	Error      *ErrorDoc              `json:"error,omitempty" yaml:"error,omitempty"`
	// ReadBackError is why the configs could not be read back after
	// --execute applied the changes.
	ReadBackError *ErrorDoc `json:"read_back_error,omitempty" yaml:"read_back_error,omitempty"`
}

// GroupConfigEntryDoc is one config.
type GroupConfigEntryDoc struct {
	Name  string  `json:"name" yaml:"name"`
	Value *string `json:"value" yaml:"value"`
	// Source is where the value comes from, in Kafka's words:
	// DYNAMIC_GROUP_CONFIG (set on the group), STATIC_BROKER_CONFIG,
	// DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, DEFAULT_CONFIG.
	Source string `json:"source" yaml:"source"`
	// Dynamic tells that the value is set on the group.
	Dynamic   bool               `json:"dynamic" yaml:"dynamic"`
	Sensitive bool               `json:"sensitive" yaml:"sensitive"`
	ReadOnly  bool               `json:"read_only" yaml:"read_only"`
	Synonyms  []ConfigSynonymDoc `json:"synonyms" yaml:"synonyms"`
}

// ConfigSynonymDoc is one synonym of a config, most specific first.
type ConfigSynonymDoc struct {
	Name   string  `json:"name" yaml:"name"`
	Value  *string `json:"value" yaml:"value"`
	Source string  `json:"source" yaml:"source"`
}

// GroupConfigChangeDoc is one requested change.
type GroupConfigChangeDoc struct {
	Name string `json:"name" yaml:"name"`
	// Op is set or delete.
	Op    string  `json:"op" yaml:"op"`
	Value *string `json:"value" yaml:"value"`
	// Before is the value before; After the value read back (--dry-run:
	// the value it would become). Null when the broker does not report
	// the key.
	Before *ConfigSettingDoc `json:"before" yaml:"before"`
	After  *ConfigSettingDoc `json:"after" yaml:"after"`
}

// ConfigSettingDoc is a value and where it comes from.
type ConfigSettingDoc struct {
	Value  *string `json:"value" yaml:"value"`
	Source string  `json:"source" yaml:"source"`
	// From names the config the value comes from: the key itself when set
	// on the group, else the broker's (group.streams.num.standby.replicas).
	From string `json:"from" yaml:"from"`
}

// NewGroupConfigDoc builds the document of a config result.
func NewGroupConfigDoc(res *groupconfig.Result) GroupConfigDoc {
	doc := GroupConfigDoc{Mode: res.Mode.String(), Groups: make([]GroupConfigGroupDoc, 0, len(res.Groups))}
	for _, g := range res.Groups {
		d := GroupConfigGroupDoc{Group: g.Group, Unreported: mapAll(g.Unreported, keyName)}
		switch {
		case g.Err != nil && kafka.Classify(g.Err).Category == kafka.ConfigRefused:
			d.Outcome = "refused"
		case g.Err != nil:
			d.Outcome = "failed"
		case res.Mode == groupconfig.DryRun:
			d.Outcome = "validated"
		case res.Mode == groupconfig.Execute:
			d.Outcome = "applied"
		default:
			d.Outcome = "described"
		}
		d.Error, d.ReadBackError = NewErrorDoc(g.Err), NewErrorDoc(g.ReadBackErr)
		if g.Configs != nil || (g.Err == nil && g.ReadBackErr == nil) {
			d.Configs = make([]GroupConfigEntryDoc, 0, len(g.Configs))
		}
		for _, e := range g.Configs {
			ed := GroupConfigEntryDoc{Name: e.Name, Value: e.Value, Source: string(e.Source), Dynamic: e.Dynamic(),
				Sensitive: e.Sensitive, ReadOnly: e.ReadOnly, Synonyms: mapAll(e.Synonyms, configSynonymDoc)}
			d.Configs = append(d.Configs, ed)
		}
		for _, c := range g.Changes {
			cd := GroupConfigChangeDoc{Name: c.Name, Op: "set", Value: c.Value, Before: settingDoc(c.Before), After: settingDoc(c.After)}
			if c.Value == nil {
				cd.Op = "delete"
			}
			d.Changes = append(d.Changes, cd)
		}
		doc.Groups = append(doc.Groups, d)
	}
	return doc
}

func keyName(k kafka.GroupConfigKey) string { return k.Name }

func configSynonymDoc(s kafka.ConfigSynonym) ConfigSynonymDoc {
	return ConfigSynonymDoc{Name: s.Name, Value: s.Value, Source: string(s.Source)}
}

func settingDoc(s groupconfig.Setting) *ConfigSettingDoc {
	if !s.Known {
		return nil
	}
	return &ConfigSettingDoc{Value: s.Value, Source: string(s.Source), From: s.Name}
}
