package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
)

// newAdmin builds the Kafka client of this invocation from the bootstrap
// servers, the client properties (--command-config or the profile) and
// --debug. Every verb gets its client here. A bad property is a usage
// error (exit 2) that names the file, the line and the key.
func (a *app) newAdmin() (*admin.Client, error) {
	props, opts, err := a.cfg.Client.properties()
	if err != nil {
		return nil, err
	}
	settings, err := clientconfig.Build(props, opts)
	if err != nil {
		return nil, &usageError{err: err}
	}
	var debug io.Writer
	if a.cfg.Debug {
		debug = a.io.ErrOut
		a.debugConfig(settings)
	}
	return admin.New(admin.Config{
		Bootstrap:       a.cfg.Bootstrap,
		ClientID:        settings.ClientID,
		SoftwareVersion: resolveVersion().Version,
		Opts:            settings.ClientOpts(debug),
	})
}

// debugConfig says where the settings came from; never a credential.
func (a *app) debugConfig(s *clientconfig.Settings) {
	file, profile, client := "none", "none", "none (PLAINTEXT)"
	if a.cfg.File != "" {
		file = a.cfg.File
	}
	if a.cfg.Profile != "" {
		profile = a.cfg.Profile
	}
	if a.cfg.Client.Origin != "" {
		client = a.cfg.Client.Origin
	}
	fmt.Fprintf(a.io.ErrOut, "debug: config file: %s; profile: %s; client properties: %s; security: %s; bootstrap: %s; timeout: %d ms\n",
		file, profile, client, s, strings.Join(a.cfg.Bootstrap, ","), a.cfg.Timeout.Milliseconds())
}
