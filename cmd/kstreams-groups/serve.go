package main

// The serve command: `kstreams-groups serve`, the exporter (and, once the
// page is mounted, the console). One collector per cluster (one per
// --profile, or the cluster of --bootstrap-server) reads what `list
// --state` and `check` read every --interval; the HTTP server answers
// from the published snapshots (internal/serve). It runs until SIGINT or
// SIGTERM, which stop it within a second with exit 0, as the playground.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/exporter-toolkit/web"
	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/serve"
	console "github.com/kstreams-groups/kstreams-groups/internal/serve/web"
)

// Defaults of serve.
const (
	defaultServeInterval = 30 * time.Second
	defaultListen        = "127.0.0.1:9464"
	defaultMaxSeries     = 100000
	// serveShutdown is what an HTTP server and the collectors get to end
	// after a signal: within signalGrace, with room to spare.
	serveShutdown = 600 * time.Millisecond
)

// serve's own options; the check's conditions follow them in its table.
var serveFlag = struct {
	group                                            stringsOpt
	interval                                         durationOpt
	maxSeries                                        intOpt
	listen, webConfig, logFormat, logLevel, addrFile stringOpt
	memoryLimit                                      stringOpt
	partitionMetrics                                 boolOpt
}{
	group: groupFlag.withHelp("A streams group to serve (repeatable); default: every streams group, listed again each cycle."),
	interval: durationOption(flagDef{name: "interval", help: "The time `D` between the starts of two cycles (default 30s; at least 1s)."},
		time.Second, "--interval: want a duration of at least 1s, such as 30s or 1m, got %q"),
	listen:    stringOption(flagDef{name: "listen", help: "The `ADDRESS` to serve HTTP on (default " + defaultListen + ": this host only)."}),
	webConfig: stringOption(flagDef{name: "web.config.file", help: "The exporter web configuration `FILE` (TLS, basic authentication), as every Prometheus exporter takes it."}),
	maxSeries: intOption(flagDef{name: "max-series", help: "At most `N` group series per cluster (default 100000; 0: no cap); past it whole families below group level are dropped, those with the most labels first, and counted."},
		0, "--max-series: want a whole number, 0 or more, got %q"),
	partitionMetrics: partitionMetricsFlag.withHelp("Also the per-partition series: kstreams_task_lag, and kstreams_partition_lag_seconds with the time lag."),
	logFormat:        stringOption(flagDef{name: "log-format", help: "The log `FORMAT` on stderr: text (the default) or json."}),
	logLevel:         stringOption(flagDef{name: "log-level", help: "The least `LEVEL` logged: debug, info (the default), warn or error."}),
	memoryLimit:      stringOption(flagDef{name: "memory-limit", help: "The Go runtime's soft memory limit `SIZE` (such as 128MiB or 1GiB), off, or auto (the default: 120MiB, or 2.5KiB per partition read when more); GOMEMLIMIT, when set, wins."}),
	addrFile:         stringOption(flagDef{name: "addr-file", help: "Write the address served on to this `FILE` once listening (with --listen 127.0.0.1:0)."}),
}

// serveFlags is serve's flag table: its own options, then the check's
// conditions.
func serveFlags() []flagDef {
	s := serveFlag
	return append(append(table(s.group, s.interval, s.listen, s.webConfig, s.maxSeries, s.partitionMetrics, s.logFormat, s.logLevel, s.memoryLimit, s.addrFile),
		serveMCPFlags()...), checkConditionFlags()...)
}

// serveOptions are serve's parsed options.
type serveOptions struct {
	interval      time.Duration
	listen        string
	webConfig     string
	maxSeries     int
	partitions    bool
	logJSON       bool
	logLevel      slog.Level
	addrFile      string
	memoryLimit   memoryLimit
	groups        []string
	checkSettings flagValues
	// mcp are /mcp's options, nil without --mcp (mcpserve.go).
	mcp *mcpOptions
}

func (a *app) serveCommand() *command {
	return &command{
		name:  "serve",
		short: "Serve Prometheus metrics of every streams group, read once per interval",
		long: `Read the cluster every --interval, as list --state and check do (one
ListGroups, then the groups' descriptions with their KIP-1331 topology,
their committed offsets and their partitions' offsets, batched per
coordinator and leader, within --timeout), and serve what was read over
HTTP from memory, so that a scrape never sends a Kafka request:

  /metrics   the metrics of check -o prometheus, each labelled cluster, and
             serve's own (kstreams_serve_*: cycle duration, last success,
             failed cycles, series, dropped series, stale)
  /healthz   200 while serve runs
  /readyz    200 once every cluster had a successful cycle, else 503
  /          the web console, and its /api/v1 documents
  /mcp       with --mcp, the tools and resources of the mcp command over
             MCP's streamable HTTP transport (docs/mcp.md)

Without --group every streams group is served, listed again each cycle.
--profile NAME, repeated, serves several clusters of the config file at
once, each labelled cluster="NAME" ("default" without --profile). The
check's conditions (--expect-state, --lag-warning, ...) set the check
status metrics, as for check. The time lag is measured by default (one
Fetch per leader; --time-lag=false leaves it out). A cycle that fails keeps the last good metrics, marks them
stale (kstreams_serve_stale 1) and logs why; while a cluster fails, the
cycles back off (the interval doubled per failure, at most 8 intervals or
5 minutes). Per-partition series only with --partition-metrics.

It listens on 127.0.0.1 only unless --listen says otherwise;
--web.config.file takes the Prometheus exporters' web configuration (TLS,
basic authentication). Logs are structured (log/slog) on stderr. SIGINT and
SIGTERM stop it within a second, with exit 0.`,
		// serve writes its log on stderr and nothing on stdout: -o is text.
		outputs: []outputRule{{formats: []format.Output{format.Text}}},
		exits:   []int{exitOK, exitFailure, exitUsage},
		flags:   serveFlags(),
		example: `  # Every streams group of one cluster, for Prometheus on this host
  kstreams-groups serve --bootstrap-server localhost:9092

  # Two clusters of the config file, every 15 s, over TLS
  kstreams-groups serve --profile prod --profile staging --interval 15s \
      --listen :9464 --web.config.file /etc/kstreams-groups/web.yml`,
		run: func(cmd *cobra.Command, _ []string) error {
			opts, err := a.serveOptions(cmd.Context(), a.flagValues(cmd, nil))
			if err != nil {
				return err
			}
			return a.serve(cmd, opts)
		},
	}
}

// serveOptions reads and checks serve's options.
func (a *app) serveOptions(ctx context.Context, v flagValues) (serveOptions, error) {
	s := serveFlag
	o := serveOptions{listen: defaultListen, memoryLimit: memoryLimit{auto: true},
		partitions: s.partitionMetrics.get(v), groups: s.group.get(v), checkSettings: v,
		webConfig: s.webConfig.get(v), addrFile: s.addrFile.get(v)}
	var err error
	if o.interval, err = s.interval.or(v, defaultServeInterval); err != nil {
		return o, &usageError{err: err}
	}
	if given := s.listen.given(v); given != nil {
		o.listen = strings.TrimSpace(*given)
		if _, _, err := net.SplitHostPort(o.listen); err != nil {
			return o, usageErrorf("--listen: want HOST:PORT, such as 127.0.0.1:9464 or :9464, got %q", *given)
		}
	}
	if o.maxSeries, err = s.maxSeries.or(v, defaultMaxSeries); err != nil {
		return o, &usageError{err: err}
	}
	if given := s.memoryLimit.given(v); given != nil {
		m, err := parseMemoryLimit(*given)
		if err != nil {
			return o, err
		}
		o.memoryLimit = m
	}
	switch f := s.logFormat.get(v); f {
	case "", "text":
	case "json":
		o.logJSON = true
	default:
		return o, usageErrorf("--log-format: want text or json, got %q", f)
	}
	if l := s.logLevel.get(v); l != "" {
		if err := o.logLevel.UnmarshalText([]byte(l)); err != nil {
			return o, usageErrorf("--log-level: want debug, info, warn or error, got %q", l)
		}
	}
	if o.mcp, err = serveMCPOptions(v); err != nil {
		return o, err
	}
	if o.webConfig != "" {
		if err := checkWebConfig(ctx, o.webConfig); err != nil {
			return o, err
		}
	}
	return o, nil
}

// checkWebConfig checks --web.config.file as the exporter toolkit will
// read it. The toolkit reads the file whole, with no limit: it gets it
// only once a bounded read found it small enough.
func checkWebConfig(ctx context.Context, path string) error {
	if _, err := webConfigInput.readFile(ctx, "--web.config.file "+path, path); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return asUsage(err, "--web.config.file "+path+": ")
	}
	if err := web.Validate(path); err != nil {
		return usageErrorf("--web.config.file %s: %v", path, err)
	}
	return nil
}

// serveClusters are the clusters to serve: one per --profile, or the
// invocation's own.
func (a *app) serveClusters(cmd *cobra.Command) (names []string, cfgs []Config, err error) {
	if len(a.profiles.values) <= 1 {
		return []string{cmp.Or(a.cfg.Profile, "default")}, []Config{a.cfg}, nil
	}
	for _, p := range a.profiles.values {
		p = strings.TrimSpace(p)
		if slices.Contains(names, p) {
			return nil, nil, usageErrorf("--profile %q given twice", p)
		}
		if p == "" {
			return nil, nil, usageErrorf("--profile: want a profile name, got \"\"")
		}
		cfg, err := resolveConfig(cmd, a.deps.env, &p)
		if err != nil {
			return nil, nil, err
		}
		names, cfgs = append(names, p), append(cfgs, cfg)
	}
	return names, cfgs, nil
}

// serve runs the collectors and the HTTP server until a signal.
func (a *app) serve(cmd *cobra.Command, o serveOptions) error {
	ctx := cmd.Context()
	names, cfgs, err := a.serveClusters(cmd)
	if err != nil {
		return err
	}
	checkOpts, err := a.checkOptions(o.checkSettings)
	if err != nil {
		return &usageError{err: err}
	}
	checkOpts.Groups, checkOpts.AllGroups, checkOpts.Describe = o.groups, len(o.groups) == 0, true
	if err := checkOpts.Validate(); err != nil {
		return &usageError{err: err}
	}
	var handler slog.Handler = slog.NewTextHandler(a.io.ErrOut, &slog.HandlerOptions{Level: o.logLevel})
	if o.logJSON {
		handler = slog.NewJSONHandler(a.io.ErrOut, &slog.HandlerOptions{Level: o.logLevel})
	}
	logger := slog.New(handler)
	// Before the first cycle, which is what it bounds.
	follow := a.applyMemoryLimit(o.memoryLimit, logger)
	var cs serve.Collectors
	for i, cfg := range cfgs {
		if len(cfg.Bootstrap) == 0 {
			return usageErrorf("cluster %q: no bootstrap server (--bootstrap-server, KSTREAMS_GROUPS_BOOTSTRAP_SERVER or the config file)", names[i])
		}
		t := target{bootstrap: cfg.Bootstrap, origin: cfg.BootstrapOrigin, client: cfg.Client}
		// A bad property or bootstrap server is a usage error now, not a
		// failed cycle every interval.
		first, err := a.newAdmin(ctx, t)
		if err != nil {
			return err
		}
		var once sync.Once
		cs = append(cs, serve.NewCollector(serve.Config{
			Name: names[i],
			NewClient: func(ctx context.Context) (serve.Client, error) {
				var c client
				once.Do(func() { c = first })
				if c != nil {
					return c, nil
				}
				return a.newAdmin(ctx, t)
			},
			Check:     checkOpts,
			Interval:  o.interval,
			Timeout:   cfg.Timeout,
			Metrics:   format.PrometheusOptions{TimeLag: checkOpts.ShowsTimeLag(), PartitionTimeLag: o.partitions, OmitTaskLag: !o.partitions},
			MaxSeries: o.maxSeries,
			Logger:    logger,
		}))
	}
	// The page asks again once per cycle: sooner shows nothing new.
	webHandler := console.Handler(cs, console.WithRefresh(o.interval))
	l, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", o.listen, err)
	}
	if o.addrFile != "" {
		if err := os.WriteFile(o.addrFile, []byte(l.Addr().String()+"\n"), 0o644); err != nil {
			l.Close()
			return err
		}
	}
	var mcpHandler http.Handler
	if o.mcp != nil {
		h, done, err := a.mcpHTTP(cmd, names, *o.mcp, logger)
		if err != nil {
			l.Close()
			return err
		}
		defer done()
		mcpHandler = h
	}
	srv := serve.NewServer(serve.Handler(cs, serve.HandlerOptions{Web: webHandler, MCP: mcpHandler, Logger: logger}),
		serve.ServerOptions{WebConfigFile: o.webConfig, Limits: serve.DefaultLimits(), Logger: logger})
	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	for _, c := range cs {
		wg.Go(func() { c.Run(runCtx) })
	}
	if follow != nil {
		wg.Go(func() { followMemoryLimit(runCtx, o.interval, cs, follow) })
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	logger.Info("serving", "address", l.Addr().String(), "clusters", strings.Join(names, ","), "interval", o.interval.String())
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	stop()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), serveShutdown)
	defer cancel()
	_ = srv.Shutdown(sctx)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-sctx.Done():
		logger.Warn("a cycle did not end in time; stopping anyway")
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	logger.Info("stopped")
	return nil
}
