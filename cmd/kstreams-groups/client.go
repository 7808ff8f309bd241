package main

import (
	"context"
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
		Security:        settings,
		Debug:           debug,
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

// connect prepares a verb that talks to Kafka, after the verb has checked
// its options (requireBootstrap first, in Kafka's order): the whole verb is
// bounded by --timeout and the client is built from this invocation's
// settings. done closes the client and releases the context.
func (a *app) connect(ctx context.Context) (_ context.Context, _ *admin.Client, done func(), _ error) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	client, err := a.newAdmin()
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return ctx, client, func() { client.Close(); cancel() }, nil
}
