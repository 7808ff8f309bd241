package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig"
	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/deleteoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/diff"
	"github.com/kstreams-groups/kstreams-groups/internal/doctor"
	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/groupconfig"
	"github.com/kstreams-groups/kstreams-groups/internal/history"
	"github.com/kstreams-groups/kstreams-groups/internal/inventory"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/upgrade"
)

// client is what the verbs need from a Kafka client; *admin.Client is the
// real one, and tests may put a fake in deps.
type client interface {
	describe.Client
	list.Client
	groupdelete.Client
	diff.Client
	overview.Client
	resetoffsets.Client
	deleteoffsets.Client
	check.Client
	doctor.Client
	inventory.Client
	groupconfig.Client
	upgrade.Client
	history.Client
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
	// clock is where --watch takes its time from; nil means the real one.
	clock clock
	// signals, when set, is the process's SIGINT and SIGTERM (main's);
	// nil in tests that run commands in-process.
	signals *signalWatch
	// env is the environment the command sees; the zero value is the
	// process's.
	env environ
	// setMemoryLimit, when set, gets serve's soft memory limit instead
	// of the runtime (servememory.go).
	setMemoryLimit func(int64)
	// terminal, when set, tells which writers are terminals (tests);
	// nil asks the operating system.
	terminal func(w io.Writer) bool
	// undeclared, when set, is told of a verb's read of an option its
	// flag table lacks (flagValues.undeclared): the command tests fail on
	// it; nil reads it as not given.
	undeclared func(name string)
	// moreVerbs, when set, adds verbs after the declared ones: the fake
	// verb of TestFakeVerb_foundByRule, which shows that a verb's entry
	// is all that help, completion and the reference need.
	moreVerbs func(a *app) []*verb
}

// target is a cluster a verb talks to: its bootstrap servers and where the
// client properties come from. Most verbs talk to one, defaultTarget; diff
// may talk to a second one for its NEW side.
type target struct {
	bootstrap []string
	// origin names where bootstrap was set, for its errors.
	origin string
	client ClientSource
}

// defaultTarget is the cluster of --bootstrap-server (or the environment
// or the config file) with --command-config (or the profile).
func (a *app) defaultTarget() target {
	return target{bootstrap: a.cfg.Bootstrap, origin: a.cfg.BootstrapOrigin, client: a.cfg.Client}
}

// newAdmin builds a Kafka client for the cluster t from its bootstrap
// servers, its client properties and --debug. Every verb gets its clients
// here. A bad property is a usage error (exit 2) that names the file, the
// line and the key; a bad bootstrap server one that names the value and
// where it was set.
func (a *app) newAdmin(ctx context.Context, t target) (client, error) {
	props, opts, err := t.client.properties(ctx)
	if err != nil {
		return nil, err
	}
	settings, err := clientconfig.Build(props, opts)
	if err != nil {
		return nil, &usageError{err: err}
	}
	bootstrap, err := parseBootstrap(t.bootstrap, t.origin)
	if err != nil {
		return nil, err
	}
	var debug io.Writer
	if a.cfg.Debug {
		// Every --debug line is escaped as a whole: it quotes broker
		// hosts, broker and kgo messages, paths and profile names.
		debug = format.LineEscaper{W: a.io.ErrOut}
		a.debugConfig(debug, t, settings)
	}
	cfg := admin.Config{
		Bootstrap:       bootstrap,
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

// debugConfig says where the settings of t came from; never a credential.
func (a *app) debugConfig(w io.Writer, t target, s *clientconfig.Settings) {
	fmt.Fprintf(w, "debug: config file: %s; profile: %s; client properties: %s; security: %s; bootstrap: %s; timeout: %d ms\n",
		cmp.Or(a.cfg.File, "none"), cmp.Or(a.cfg.Profile, "none"), cmp.Or(t.client.Origin, "none (PLAINTEXT)"),
		s, strings.Join(t.bootstrap, ","), a.cfg.Timeout.Milliseconds())
}

// connect prepares a verb that talks to Kafka, after validate has checked
// its options (the bootstrap server first, in Kafka's order): the whole verb is
// bounded by --timeout and the client is built from this invocation's
// settings. done closes the client and releases the context.
func (a *app) connect(ctx context.Context) (_ context.Context, _ client, done func(), _ error) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	client, err := a.newAdmin(ctx, a.defaultTarget())
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return ctx, client, func() { client.Close(); cancel() }, nil
}
