//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Plugin names a value for group.streams.topology.description.plugin.class.
type Plugin string

const (
	// PluginDefault is PluginInMemory on 4.4.0 and PluginNone on 4.3.1.
	PluginDefault Plugin = ""
	// PluginNone leaves group.streams.topology.description.plugin.class unset.
	PluginNone Plugin = "none"
	// PluginInMemory is Kafka's own in-memory plugin (kafka-server-4.4.0.jar).
	PluginInMemory Plugin = "org.apache.kafka.server.streams.InMemoryTopologyDescriptionPlugin"
	// PluginFailing is the project's fault-injecting plugin (e2e/kafka-harness), switched at run
	// time through Broker.SetFaults.
	PluginFailing Plugin = "e2e.FailingTopologyPlugin"
)

// BrokerOptions configures StartBroker. The zero value is a 4.4.0 broker with the in-memory plugin.
type BrokerOptions struct {
	Version KafkaVersion      // default Kafka44
	Plugin  Plugin            // default PluginDefault
	HeapMB  int               // default 512
	Props   map[string]string // extra/overriding server.properties entries; ${PLAINTEXT_PORT} and ${CONTROLLER_PORT} expand to the harness's ports (e.g. to add a listener)
	// ReadyTimeout bounds the wait for ApiVersions+Metadata; default 90s (a loaded 2-core machine
	// has needed 27s).
	ReadyTimeout time.Duration
}

// Broker is a running single-node KRaft broker+controller (combined mode) on 127.0.0.1.
type Broker struct {
	Version   KafkaVersion
	Plugin    Plugin
	Addr      string // 127.0.0.1:P (PLAINTEXT)
	Dir       string // temp dir: server.properties, data/, broker.log, faults.txt, app/tool files
	FaultFile string // read by e2e.FailingTopologyPlugin on every call
	Proc      *Process
	StartTime time.Duration // from java launch to ready (ApiVersions+Metadata OK)

	client *kgo.Client
	// What Restart starts again: the classpath, the JVM's arguments, the
	// properties file and the readiness bound.
	cp, propsPath string
	jvm           []string
	readyTimeout  time.Duration
}

// NewClusterID returns a random Kafka cluster id (a Uuid: 16 bytes, base64url without padding).
func NewClusterID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[0] &= 0x7f // keep it away from the reserved Uuid values' sign games
	return base64.RawURLEncoding.EncodeToString(b)
}

// StartBroker formats a fresh temp dir and starts a broker; it is stopped (SIGTERM, then
// SIGKILL) by PID in tb.Cleanup. The temp dir is kept when the test failed (path is logged).
func StartBroker(tb testing.TB, opts BrokerOptions) *Broker {
	tb.Helper()
	b, err := startBroker(opts)
	if b != nil {
		tb.Cleanup(func() {
			b.Close()
			if tb.Failed() || os.Getenv("E2E_KEEP") == "1" {
				logf("kept broker dir %s", b.Dir)
			} else {
				_ = os.RemoveAll(b.Dir)
			}
		})
	}
	if err != nil {
		tb.Fatalf("%v", err)
	}
	return b
}

func startBroker(opts BrokerOptions) (*Broker, error) {
	if opts.Version == "" {
		opts.Version = Kafka44
	}
	if opts.Plugin == PluginDefault {
		if opts.Version == Kafka44 {
			opts.Plugin = PluginInMemory
		} else {
			opts.Plugin = PluginNone
		}
	}
	if opts.HeapMB == 0 {
		opts.HeapMB = 512
	}
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 90 * time.Second
	}
	cp, err := Classpath(opts.Version)
	if err != nil {
		return nil, err
	}
	if opts.Version == Kafka44 {
		if err := ProbeKIP1331(); err != nil {
			return nil, err
		}
	}
	if opts.Plugin == PluginFailing && opts.Version != Kafka44 {
		return nil, fmt.Errorf("e2e: %s needs the 4.4.0 classpath", PluginFailing)
	}
	dir, err := os.MkdirTemp(os.Getenv("E2E_TMPDIR"), "e2e-broker-")
	if err != nil {
		return nil, err
	}
	p, err := FreePort()
	if err != nil {
		return nil, err
	}
	c, err := FreePort()
	if err != nil {
		return nil, err
	}
	b := &Broker{
		Version:   opts.Version,
		Plugin:    opts.Plugin,
		Addr:      fmt.Sprintf("127.0.0.1:%d", p),
		Dir:       dir,
		FaultFile: filepath.Join(dir, "faults.txt"),
	}
	props := map[string]string{
		"process.roles":                                    "broker,controller",
		"node.id":                                          "1",
		"controller.quorum.voters":                         fmt.Sprintf("1@127.0.0.1:%d", c),
		"listeners":                                        fmt.Sprintf("PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d", p, c),
		"advertised.listeners":                             fmt.Sprintf("PLAINTEXT://127.0.0.1:%d", p),
		"controller.listener.names":                        "CONTROLLER",
		"inter.broker.listener.name":                       "PLAINTEXT",
		"listener.security.protocol.map":                   "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
		"log.dirs":                                         filepath.Join(dir, "data"),
		"num.partitions":                                   "1",
		"offsets.topic.replication.factor":                 "1",
		"offsets.topic.num.partitions":                     "1",
		"transaction.state.log.replication.factor":         "1",
		"transaction.state.log.min.isr":                    "1",
		"share.coordinator.state.topic.replication.factor": "1",
		"share.coordinator.state.topic.min.isr":            "1",
		"group.initial.rebalance.delay.ms":                 "0",
		"group.streams.initial.rebalance.delay.ms":         "0",
		"group.streams.min.heartbeat.interval.ms":          "500",
		"group.streams.heartbeat.interval.ms":              "1000",
		"group.streams.min.session.timeout.ms":             "6000",
		"group.streams.session.timeout.ms":                 "10000",
		"group.consumer.min.session.timeout.ms":            "6000",
		"group.consumer.session.timeout.ms":                "10000",
		"group.consumer.min.heartbeat.interval.ms":         "500",
		"group.consumer.heartbeat.interval.ms":             "1000",
		"num.network.threads":                              "2",
		"num.io.threads":                                   "4",
		"group.coordinator.threads":                        "1",
		"log.cleaner.dedupe.buffer.size":                   "16777216",
		"auto.create.topics.enable":                        "false",
	}
	if opts.Plugin != PluginNone {
		props["group.streams.topology.description.plugin.class"] = string(opts.Plugin)
	}
	if opts.Plugin == PluginFailing {
		props["e2e.plugin.fault.file"] = b.FaultFile
	}
	ports := strings.NewReplacer("${PLAINTEXT_PORT}", fmt.Sprint(p), "${CONTROLLER_PORT}", fmt.Sprint(c))
	for k, v := range opts.Props {
		if v == "" {
			delete(props, k)
		} else {
			props[k] = ports.Replace(v)
		}
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "%s=%s\n", k, props[k])
	}
	propsPath := filepath.Join(dir, "server.properties")
	if err := os.WriteFile(propsPath, []byte(sb.String()), 0o644); err != nil {
		return b, err
	}

	// Format (static quorum: controller.quorum.voters, so no --standalone).
	toolLog := "-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "tool-log4j2.properties")
	fmtStart := time.Now()
	format := exec.Command(JavaBin(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", toolLog,
		"-cp", cp, "kafka.tools.StorageTool", "format", "-t", NewClusterID(), "-c", propsPath)
	if out, err := format.CombinedOutput(); err != nil {
		return b, fmt.Errorf("e2e: StorageTool format failed: %w\n%s", err, out)
	}
	logf("formatted %s (%s) in %s", dir, opts.Version, time.Since(fmtStart).Round(time.Millisecond))

	jvm := []string{
		fmt.Sprintf("-Xms%dm", min(256, opts.HeapMB)), fmt.Sprintf("-Xmx%dm", opts.HeapMB),
		"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
		"-Dlog4j2.configurationFile=" + filepath.Join(HarnessDir(), "config", "broker-log4j2.properties"),
	}
	b.cp, b.jvm, b.propsPath, b.readyTimeout = cp, jvm, propsPath, opts.ReadyTimeout
	if err := b.launch(); err != nil {
		return b, err
	}
	if opts.Version == Kafka44 {
		if err := b.CheckKIP1331(context.Background()); err != nil {
			return b, err
		}
	}
	return b, nil
}

// launch starts the broker's JVM on the formatted directory and waits
// until it answers.
func (b *Broker) launch() error {
	start := time.Now()
	proc, err := StartJava("broker-"+string(b.Version), filepath.Join(b.Dir, "broker.log"), b.cp, b.jvm, "kafka.Kafka", b.propsPath)
	if err != nil {
		return err
	}
	b.Proc = proc
	ctx, cancel := context.WithTimeout(context.Background(), b.readyTimeout)
	defer cancel()
	if err := b.waitReady(ctx); err != nil {
		return fmt.Errorf("e2e: broker %s at %s not ready: %w (log: %s)\n%s", b.Version, b.Addr, err, proc.LogPath, logTail(proc.LogPath, 3000))
	}
	b.StartTime = time.Since(start)
	logf("broker %s ready at %s in %s (plugin %s)", b.Version, b.Addr, b.StartTime.Round(time.Millisecond), b.Plugin)
	return nil
}

// Stop stops the broker's process by PID (SIGTERM, then SIGKILL after 15s)
// and keeps its directory, data and ports, for Restart.
func (b *Broker) Stop() error {
	if b.client != nil {
		b.client.Close()
		b.client = nil
	}
	if b.Proc == nil {
		return nil
	}
	return b.Proc.Stop(15 * time.Second)
}

// Restart starts a stopped broker again on the same ports and data
// directory (no format: the cluster, its topics, groups and committed
// offsets are the same) and waits until it answers.
func (b *Broker) Restart() error {
	if b.Proc != nil && !b.Proc.Exited() {
		return fmt.Errorf("e2e: broker at %s is running: Stop it first", b.Addr)
	}
	return b.launch()
}

// Close stops the broker by PID (SIGTERM, then SIGKILL after 15s) and closes the client.
func (b *Broker) Close() {
	if b.client != nil {
		b.client.Close()
		b.client = nil
	}
	if b.Proc != nil {
		if err := b.Proc.Stop(15 * time.Second); err != nil {
			logf("%v", err)
		}
	}
}

// SetFaults replaces the fault file of e2e.FailingTopologyPlugin. Each line is
// `<get|delete|set|set-transient> [<group-id regex>]`; no lines means healthy. The plugin
// re-reads the file on every call, so this takes effect at once without a restart.
func (b *Broker) SetFaults(lines ...string) error {
	if len(lines) == 0 {
		err := os.Remove(b.FaultFile)
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	tmp := b.FaultFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, b.FaultFile)
}

func logTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return tail(b, n)
}
