package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
)

// client is what the verbs need from a Kafka client; *admin.Client is the
// real one, and tests may put a fake in deps.
type client interface {
	describe.Client
	list.Client
	groupdelete.Client
	Close()
}

// deps are what an invocation depends on beyond its streams: the seam for
// tests, as gh's runF and Factory are.
type deps struct {
	// newClient builds the Kafka client; nil means admin.New.
	newClient func(admin.Config) (client, error)
	// runF, when set, gets each verb's validated options instead of the
	// verb running: flag-parsing tests stop there, with no broker.
	runF func(verb string, opts any) error
	// signals, when set, is the process's SIGINT and SIGTERM (main's);
	// nil in tests that run commands in-process.
	signals *signalWatch
}

// newAdmin builds the Kafka client of this invocation from the bootstrap
// servers, the client properties (--command-config or the profile) and
// --debug. Every verb gets its client here. A bad property is a usage
// error (exit 2) that names the file, the line and the key.
func (a *app) newAdmin(ctx context.Context) (client, error) {
	props, opts, err := a.cfg.Client.properties(ctx)
	if err != nil {
		return nil, err
	}
	settings, err := clientconfig.Build(props, opts)
	if err != nil {
		return nil, &usageError{err: err}
	}
	var debug io.Writer
	if a.cfg.Debug {
		// Every --debug line is escaped as a whole: it quotes broker
		// hosts, broker and kgo messages, paths and profile names.
		debug = format.LineEscaper{W: a.io.ErrOut}
		a.debugConfig(debug, settings)
	}
	cfg := admin.Config{
		Bootstrap:       a.cfg.Bootstrap,
		ClientID:        settings.ClientID,
		SoftwareVersion: resolveVersion().Version,
		Security:        settings,
		Debug:           debug,
	}
	if a.deps.newClient != nil {
		return a.deps.newClient(cfg)
	}
	return admin.New(cfg)
}

// debugConfig says where the settings came from; never a credential.
func (a *app) debugConfig(w io.Writer, s *clientconfig.Settings) {
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
	fmt.Fprintf(w, "debug: config file: %s; profile: %s; client properties: %s; security: %s; bootstrap: %s; timeout: %d ms\n",
		file, profile, client, s, strings.Join(a.cfg.Bootstrap, ","), a.cfg.Timeout.Milliseconds())
}

// connect prepares a verb that talks to Kafka, after the verb has checked
// its options (requireBootstrap first, in Kafka's order): the whole verb is
// bounded by --timeout and the client is built from this invocation's
// settings. done closes the client and releases the context.
func (a *app) connect(ctx context.Context) (_ context.Context, _ client, done func(), _ error) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	client, err := a.newAdmin(ctx)
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return ctx, client, func() { client.Close(); cancel() }, nil
}
