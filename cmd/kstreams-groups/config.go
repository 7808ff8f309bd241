package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// Config is the typed configuration of one invocation. Precedence, highest
// first: flags, KSTREAMS_GROUPS_* environment variables, the config file,
// defaults.
type Config struct {
	Bootstrap         []string
	Timeout           time.Duration
	Output            format.Output
	DetailedExitCodes bool
	// File is the config file that was read, if any.
	File string
}

// configKeys are the keys a config file may hold; each is also a flag and an
// environment variable (KSTREAMS_GROUPS_ + upper-case, - as _).
var configKeys = []string{"bootstrap-server", "timeout", "detailed-exit-codes", "output"}

// loadConfig resolves Config from the parsed flags, the environment and the
// config file. It runs before every command.
func (a *app) loadConfig(cmd *cobra.Command) error {
	v := viper.New()
	v.SetEnvPrefix("KSTREAMS_GROUPS")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	for _, k := range configKeys {
		if err := v.BindPFlag(k, cmd.Flags().Lookup(k)); err != nil {
			return err
		}
	}

	path, explicit := cmd.Flags().Lookup("config").Value.String(), true
	if path == "" {
		path = os.Getenv("KSTREAMS_GROUPS_CONFIG")
	}
	if path == "" {
		path, explicit = defaultConfigPath(), false
	}
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			if err := checkConfigKeys(data); err != nil {
				return usageErrorf("config file %s: %v", path, err)
			}
			v.SetConfigType("yaml")
			if err := v.ReadConfig(strings.NewReader(string(data))); err != nil {
				return usageErrorf("config file %s: %v", path, err)
			}
			a.cfg.File = path
		case explicit || !errors.Is(err, os.ErrNotExist):
			return usageErrorf("cannot read config file: %v", err)
		}
	}

	for _, s := range strings.Split(v.GetString("bootstrap-server"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			a.cfg.Bootstrap = append(a.cfg.Bootstrap, s)
		}
	}
	ms, err := castInt64(v.Get("timeout"))
	if err != nil || ms <= 0 {
		return usageErrorf("invalid timeout %v: want a positive number of milliseconds", v.Get("timeout"))
	}
	a.cfg.Timeout = time.Duration(ms) * time.Millisecond
	detailed, err := castBool(v.Get("detailed-exit-codes"))
	if err != nil {
		return usageErrorf("invalid detailed-exit-codes %v: want true or false", v.Get("detailed-exit-codes"))
	}
	a.cfg.DetailedExitCodes = detailed
	out, err := format.ParseOutput(v.GetString("output"))
	if err != nil {
		return &usageError{err: err}
	}
	a.cfg.Output = out
	a.loaded = true
	return nil
}

// requireBootstrap fails like kafka-streams-groups.sh when no bootstrap
// server was given anywhere.
func (a *app) requireBootstrap() error {
	if len(a.cfg.Bootstrap) == 0 {
		return usageErrorf(`Missing required argument "[bootstrap-server]"`)
	}
	return nil
}

func defaultConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "kstreams-groups", "config.yaml")
}

// checkConfigKeys rejects keys the tool does not know, so a typo does not
// silently fall back to a default.
func checkConfigKeys(data []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	if len(doc.Content) == 0 {
		return nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return errors.New("want a mapping of keys to values at the top level")
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if !slices.Contains(configKeys, k.Value) {
			return errors.New("line " + itoa(k.Line) + ": unknown key \"" + k.Value + "\" (known: " + strings.Join(configKeys, ", ") + ")")
		}
	}
	return nil
}
