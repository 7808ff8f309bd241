package playground

import (
	"embed"
	"slices"
	"strings"
)

// The seeds of the docs' pages besides the default one, compiled in so
// that `kstreams-groups playground --state NAME` needs no clone:
// offsets.yaml (the offset verbs), standbys.yaml (one group per standby
// coverage case) and timelag.yaml (records with timestamps, for the time
// lag).
//
//go:embed seed/offsets.yaml seed/standbys.yaml seed/timelag.yaml
var builtinSeeds embed.FS

// BuiltinSeed is the text of the built-in seed called name ("default",
// "offsets", "standbys", "timelag"), and whether there is one.
func BuiltinSeed(name string) ([]byte, bool) {
	if name == "default" {
		return defaultStateYAML, true
	}
	if !slices.Contains(BuiltinSeedNames(), name) {
		return nil, false
	}
	data, err := builtinSeeds.ReadFile("seed/" + name + ".yaml")
	return data, err == nil
}

// BuiltinSeedNames are the names BuiltinSeed knows, sorted.
func BuiltinSeedNames() []string {
	names := []string{"default"}
	entries, _ := builtinSeeds.ReadDir("seed")
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	slices.Sort(names)
	return names
}
