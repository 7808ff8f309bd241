package main

// TestReplayRealCaptures runs, on every plain `go test`, the commands whose
// output e2e/testdata/real holds verbatim from the real Apache Kafka 4.4.0
// kafka-streams-groups.sh, against playground clusters seeded like the real
// brokers were (internal/playground/seed/real), and requires our stdout to
// be the captured stdout byte for byte and our exit code the captured one,
// once the deliberate differences of docs/differences.md ("Deliberate differences from
// kafka-streams-groups.sh") that apply are applied to the capture. Each
// difference is one entry of replayDifferences; each scenario names the ones
// it needs. Every capture directory is either replayed or listed in
// replayNotReplayed with the reason.
//
// The Java tool's stderr (stack traces, the admin client's log lines, its
// usage table) has no counterpart in ours: our stderr must be empty unless a
// difference says which lines we print instead.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

// replayRun is the one call into the CLI.
func replayRun(t testing.TB, args []string, stdout, stderr *bytes.Buffer) int {
	return testRun(t, args, IOStreams{In: strings.NewReader(""), Out: stdout, ErrOut: stderr}, deps{})
}

var (
	realCaptures = filepath.Join("..", "..", "e2e", "testdata", "real")
	realWire     = filepath.Join(realCaptures, "wire")
	realSeeds    = filepath.Join("..", "..", "internal", "playground", "seed", "real")
)

// replayNotReplayed are the capture directories the test does not replay.
var replayNotReplayed = map[string]string{
	"help":    `README "--help": ours exits 0 and prints its own help on stdout; the Java tool's help is a different text on stderr`,
	"version": `README "--version": ours prints "kstreams-groups version <v> (commit <c>, built <date>)", not Kafka's "4.4.0"`,
	"wire":    "franz-go decodes of the real brokers' responses, not a command: the seeds copy them (TestRealSeeds)",
}

// replayBroker is one real broker of the captures and the scenarios captured
// on it, replayed in capture order on one playground cluster.
type replayBroker struct {
	name  string
	seed  string // file in realSeeds; "" for validation scenarios, which reach no broker
	steps []replayStep
}

// replayStep is one captured scenario.
type replayStep struct {
	dir string // under realCaptures
	// prep changes the cluster the way the real broker changed before this
	// capture (an app stopped, the plugin failed); nil: no change.
	prep func(t *testing.T, r *replayCluster)
	// diffs are the keys of replayDifferences that apply, in order.
	diffs []string
	// javaOrder is the group of each group block the Java tool printed, for
	// --all-groups (java.util.HashMap order; FINDINGS F44, F68).
	javaOrder []string
	// rest gives, for groups the Java tool never printed because an earlier
	// group's error aborted it (F51), the capture that printed the group
	// alone on the same broker.
	rest map[string]string
}

var replayBrokers = []replayBroker{
	{name: "validation", steps: []replayStep{
		{dir: "no-args", diffs: []string{"usage error", "our help text"}},
		{dir: "describe-topology-no-group", diffs: []string{"usage error"}},
		{dir: "describe-topology-members", diffs: []string{"usage error"}},
		{dir: "describe-topology-offsets", diffs: []string{"usage error"}},
		{dir: "describe-topology-state", diffs: []string{"usage error"}},
		{dir: "topology-without-describe", diffs: []string{"usage error"}},
		{dir: "list-topology", diffs: []string{"usage error"}},
		{dir: "delete-topology", diffs: []string{"usage error"}},
		{dir: "describe-topology-group-and-all-groups", diffs: []string{"usage error"}},
		{dir: "describe-topology-no-bootstrap", diffs: []string{"usage error", "bootstrap hint"}},
	}},
	{name: "inmemory", seed: "kafka-4.4.0-inmemory.yaml", steps: []replayStep{
		{dir: "describe-topology-available-wordcount"},
		{dir: "describe-topology-available-globalstore"},
		{dir: "describe-topology-available-dynamicsink"},
		{dir: "describe-topology-available-verbose"},
		{dir: "describe-topology-available-timeout"},
		{dir: "describe-topology-not-stored"},
		{dir: "describe-topology-two-groups-available-first", diffs: []string{"group headers"}},
		{dir: "describe-topology-two-groups-not-stored-first", diffs: []string{"group headers"}},
		{dir: "describe-topology-two-groups-both-available", diffs: []string{"group headers"}},
		// --all-groups lists only the streams groups, in HashMap order (F44).
		{dir: "describe-topology-all-groups", javaOrder: []string{"ns-app", "wc-app", "ds-app", "gs-app"},
			diffs: []string{"all-groups sorted", "group headers"}},
		{dir: "describe-topology-group-not-found", diffs: []string{"group error line"}},
		{dir: "describe-topology-two-groups-one-missing", diffs: []string{"group error line", "group headers"}},
		{dir: "describe-topology-two-groups-missing-first", rest: map[string]string{"wc-app": "describe-topology-available-wordcount"},
			diffs: []string{"no abort", "group error line", "group headers"}},
		{dir: "describe-topology-same-group-twice", diffs: []string{"group headers"}},
		{dir: "describe-topology-classic-group", diffs: []string{"group error line"}},
		{dir: "describe-topology-consumer-group", diffs: []string{"group error line"}},
		{dir: "describe-topology-all-groups-with-consumer-groups", javaOrder: []string{"ns-app", "wc-app", "ds-app", "gs-app"},
			diffs: []string{"all-groups sorted", "group headers"}},
		{dir: "list", diffs: []string{"list sorted"}},
	}},
	{name: "failing", seed: "kafka-4.4.0-failing-plugin.yaml", steps: []replayStep{
		// The plugin's getTopology fails: the broker answers ERROR.
		{dir: "describe-topology-error", prep: wireRow("describe-fail-app-error.json")},
		// Healthy again, the app still running.
		{dir: "describe-topology-error-recovered", prep: setGroup("fail-app", "Stable", playground.StatusAvailable)},
		{dir: "delete-non-empty", diffs: []string{"delete cause", "delete exit"}},
		{dir: "delete-not-found", diffs: []string{"delete cause", "delete exit"}},
		// The app stopped (LEAVE_GROUP): the seed's moment.
		{dir: "describe-topology-empty-group", prep: reload()},
		// The plugin's deleteTopology fails from now on.
		{dir: "delete-plugin-fails", prep: deleteFails("fail-app", "deletegroups-v3-plugin-fails.json"), diffs: []string{"delete cause", "delete exit"}},
		// No prep: the playground itself must turn the description NOT_STORED (F31).
		{dir: "describe-topology-after-failed-delete"},
		{dir: "delete-plugin-fails-and-not-found", diffs: []string{"delete cause", "delete order", "delete exit"}},
		// The plugin recovers: the broker's state as it was, without faults.
		{dir: "delete-after-recovery", prep: reload("describe-fail-app-after-failed-delete.json")},
		// No prep: the delete must have removed the group.
		{dir: "describe-topology-after-delete", diffs: []string{"group error line"}},
	}},
	{name: "noplugin", seed: "kafka-4.4.0-no-plugin.yaml", steps: []replayStep{
		{dir: "describe-topology-no-plugin"},
		// The app stopped (LEAVE_GROUP).
		{dir: "delete-no-plugin", prep: setGroup("np-app", "Empty", playground.StatusNotStored)},
	}},
	{name: "broker43", seed: "kafka-4.3.1.yaml", steps: []replayStep{
		{dir: "describe-topology-broker-4.3.1", diffs: []string{"broker too old"}},
		{dir: "describe-topology-broker-4.3.1-group-not-found", diffs: []string{"broker too old"}},
		{dir: "list-broker-4.3.1", diffs: []string{"list sorted"}},
	}},
	{name: "views", seed: "kafka-4.4.0-views.yaml", steps: []replayStep{
		{dir: "views-list", diffs: []string{"list sorted"}},
		{dir: "views-list-state", diffs: []string{"list sorted"}},
		{dir: "views-list-state-filter", diffs: []string{"list sorted"}},
		// em-app is Empty: the offsets and members views print nothing for
		// it, the state view an error line before its table (F68).
		{dir: "views-describe-offsets", javaOrder: []string{"nr-app", "wc-app"}, diffs: []string{"all-groups sorted", "rows sorted", "empty view notes"}},
		{dir: "views-describe-offsets-verbose", javaOrder: []string{"nr-app", "wc-app"}, diffs: []string{"all-groups sorted", "rows sorted", "empty view notes"}},
		{dir: "views-describe-members", javaOrder: []string{"nr-app", "wc-app"}, diffs: []string{"all-groups sorted", "rows sorted", "empty view notes"}},
		{dir: "views-describe-members-verbose", javaOrder: []string{"nr-app", "wc-app"}, diffs: []string{"all-groups sorted", "rows sorted", "empty view notes"}},
		{dir: "views-describe-state", javaOrder: []string{"em-app", "nr-app", "wc-app"}, diffs: []string{"all-groups sorted"}},
		{dir: "views-describe-state-verbose", javaOrder: []string{"em-app", "nr-app", "wc-app"}, diffs: []string{"all-groups sorted"}},
		{dir: "views-describe-default-view", diffs: []string{"rows sorted"}},
		{dir: "views-describe-groups-in-order"},
		{dir: "views-list-state-NotReady", diffs: []string{"NotReady filter"}},
		{dir: "views-list-invalid-state", diffs: []string{"usage error", "state list order"}},
		{dir: "views-describe-missing-group", diffs: []string{"group error line"}},
	}},
}

// replayDifference is one documented deliberate difference: how it changes
// what the Java tool printed into what we print.
type replayDifference struct {
	ref   string // where it is documented
	apply func(t *testing.T, e *replayExpect)
}

var replayDifferences = map[string]replayDifference{
	"usage error": {`README "Usage errors"; FINDINGS F17-F19, F35, F37-F39, F70, F71`, func(t *testing.T, e *replayExpect) {
		// Exit 2, and the same message followed by a --help hint instead
		// of the usage table.
		require.Equal(t, exitFailure, e.exit)
		e.exit = exitUsage
		e.stderr = []string{firstLine(e.capture.stderr), "Run 'kstreams-groups --help' for usage."}
	}},
	"bootstrap hint": {`docs/differences.md "Usage errors"`, func(t *testing.T, e *replayExpect) {
		// The Java tool's line stays the first; ours names the ways to
		// give a cluster, and the playground, on the next.
		require.Len(t, e.stderr, 2)
		e.stderr = []string{e.stderr[0], missingBootstrapHint, e.stderr[1]}
	}},
	"our help text": {`README "--help"; FINDINGS F35`, func(t *testing.T, e *replayExpect) {
		// Without arguments both tools print their help on stderr; ours is
		// its own (what --help prints), then the usage error.
		var help, errOut bytes.Buffer
		require.Equal(t, exitOK, replayRun(t, []string{"--help"}, &help, &errOut), errOut.String())
		e.stderr = []string{strings.TrimSuffix(help.String(), "\n"), "no action given", e.stderr[len(e.stderr)-1]}
	}},
	"group error line": {`README "Group errors"; FINDINGS F27, F45, F62, F72`, func(t *testing.T, e *replayExpect) {
		// The exception line leaves stdout; stderr gets one line with
		// Kafka's error name and the broker's message.
		e.groupErrors(t, javaGroupNotFound, func(g string, m []string) string {
			return fmt.Sprintf("Error: streams group '%s': GROUP_ID_NOT_FOUND: %s", g, m[1])
		})
	}},
	"broker too old": {`README "Broker older than 4.4 with --topology"; FINDINGS F28, F62`, func(t *testing.T, e *replayExpect) {
		e.groupErrors(t, javaTooOld, func(g string, _ []string) string {
			return fmt.Sprintf("Error: streams group '%s': topology descriptions: broker %d supports only v0 of StreamsGroupDescribe, v1 is needed (Apache Kafka 4.4 or newer)", g, replayCoordinator)
		})
	}},
	"no abort": {`README "A group error among several groups"; FINDINGS F51`, func(t *testing.T, e *replayExpect) {
		// The Java tool stopped at a group error; we describe every group.
		require.NotEmpty(t, e.blocks)
		last := e.blocks[len(e.blocks)-1].text
		require.True(t, javaGroupNotFound.MatchString(last) || javaTooOld.MatchString(last), "the Java tool stops only after a group error: %q", last)
		for _, g := range e.groups[len(e.blocks):] {
			dir, ok := e.step.rest[g]
			require.True(t, ok, "no capture of %s alone in rest", g)
			e.blocks = append(e.blocks, replayBlock{group: g, text: readCapture(t, dir).stdout})
		}
	}},
	"group headers": {`README "Several groups"; FINDINGS F43`, func(t *testing.T, e *replayExpect) {
		require.Greater(t, len(e.groups), 1)
		for i := range e.blocks {
			e.blocks[i].text = "Streams group '" + e.blocks[i].group + "':\n" + e.blocks[i].text
		}
	}},
	"all-groups sorted": {`README "--all-groups order"; FINDINGS F44, F68`, func(t *testing.T, e *replayExpect) {
		require.Contains(t, e.capture.args, "--all-groups")
		slices.SortStableFunc(e.blocks, func(a, b replayBlock) int { return strings.Compare(a.group, b.group) })
	}},
	"list sorted": {`README "--list order"; FINDINGS F44, F50`, func(t *testing.T, e *replayExpect) {
		for i := range e.blocks {
			e.blocks[i].text = sortRows(e.blocks[i].text, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
		}
	}},
	"empty view notes": {`README "A view with nothing to show"`, func(t *testing.T, e *replayExpect) {
		// stdout stays; stderr says why a group shows nothing: em-app,
		// the seed's Empty group, which the Java tool leaves out of the
		// offsets and members views, and each group whose offsets block is
		// a header only.
		if slices.Contains(e.capture.args, "--members") {
			e.stderr = append(e.stderr, "Streams group 'em-app' has no members: the members view has nothing to show.")
			return
		}
		e.stderr = append(e.stderr, "Streams group 'em-app' has no members: the offsets view shows only the partitions of members' active tasks (its committed offsets: reset-offsets --all-input-topics --to-current --dry-run).")
		for _, b := range e.blocks {
			if strings.Count(b.text, "\n") == 1 && strings.HasPrefix(b.text, "GROUP ") {
				e.stderr = append(e.stderr, fmt.Sprintf("Streams group '%s': no member has an active task, so the offsets view has no rows.", b.group))
			}
		}
	}},
	"rows sorted": {`README "Rows of --members and the offsets view"; FINDINGS F66, F67`, func(t *testing.T, e *replayExpect) {
		// Members by member id; partitions by topic, then partition.
		for i := range e.blocks {
			e.blocks[i].text = sortTableRows(t, e.blocks[i].text)
		}
	}},
	"NotReady filter": {`README "--list --state NotReady"; FINDINGS F69`, func(t *testing.T, e *replayExpect) {
		// The Java tool's filter never matches; ours lists the NotReady
		// groups: the rows of the unfiltered list that say NotReady.
		require.Len(t, e.blocks, 1)
		var b strings.Builder
		for _, l := range strings.SplitAfter(readCapture(t, "views-list-state").stdout, "\n") {
			if f := strings.Fields(l); len(f) == 2 && f[1] == "NotReady" {
				b.WriteString(l)
			}
		}
		require.NotEmpty(t, b.String())
		e.blocks[0].text += b.String()
	}},
	"state list order": {`README "Invalid state list"; FINDINGS F70`, func(t *testing.T, e *replayExpect) {
		// The same states, in our fixed order instead of one that changes
		// from run to run.
		const prefix = "Valid states are: "
		require.NotEmpty(t, e.stderr)
		head, list, ok := strings.Cut(e.stderr[0], prefix)
		require.True(t, ok, e.stderr[0])
		ours := kafka.StateNames()
		require.ElementsMatch(t, ours, strings.Split(list, ", "))
		e.stderr[0] = head + prefix + strings.Join(ours, ", ")
	}},
	"delete cause": {`README "--delete failure line"; FINDINGS F29, F30, F33, F34`, func(t *testing.T, e *replayExpect) {
		// Kafka's error name and the broker's message instead of the Java
		// exception; for GROUP_DELETION_FAILED the broker's message is the
		// DeleteGroups v3 ErrorMessage the client dropped.
		var resp kmsg.DeleteGroupsResponse
		readWireJSON(t, "deletegroups-v3-plugin-fails.json", &resp)
		require.Len(t, resp.Groups, 1)
		require.NotNil(t, resp.Groups[0].ErrorMessage)
		for i := range e.blocks {
			e.blocks[i].text = javaDeleteCause.ReplaceAllStringFunc(e.blocks[i].text, func(line string) string {
				m := javaDeleteCause.FindStringSubmatch(line)
				switch m[2] {
				case "org.apache.kafka.common.errors.GroupNotEmptyException":
					return m[1] + "NON_EMPTY_GROUP: " + m[3]
				case "java.lang.IllegalArgumentException":
					return m[1] + "GROUP_ID_NOT_FOUND: " + m[3]
				case "org.apache.kafka.common.errors.GroupDeletionFailedException":
					return m[1] + "GROUP_DELETION_FAILED: " + *resp.Groups[0].ErrorMessage
				}
				t.Fatalf("no Kafka error name for %s", m[2])
				return ""
			})
		}
	}},
	"delete order": {`README "--delete order"; FINDINGS F33`, func(t *testing.T, e *replayExpect) {
		// Failed groups in the order requested, not pre-check failures first.
		require.Len(t, e.blocks, 1)
		lines := strings.SplitAfter(e.blocks[0].text, "\n")
		var failed []string
		first := -1
		for i, l := range lines {
			if strings.HasPrefix(l, "* Group '") {
				if first < 0 {
					first = i
				}
				failed = append(failed, l)
			}
		}
		require.NotEmpty(t, failed)
		slices.SortStableFunc(failed, func(a, b string) int {
			return slices.Index(e.groups, quotedGroup(a)) - slices.Index(e.groups, quotedGroup(b))
		})
		copy(lines[first:], failed)
		e.blocks[0].text = strings.Join(lines, "")
	}},
	"delete exit": {`README "--delete exit status"; FINDINGS F30, F33, F34`, func(t *testing.T, e *replayExpect) {
		// 1 when a group was not deleted; the Java tool exits 0.
		require.Equal(t, exitOK, e.exit)
		require.Contains(t, e.stdout(), "could not be deleted due to: ")
		e.exit = exitFailure
	}},
}

var (
	javaGroupNotFound = regexp.MustCompile(`^\nError: Executing streams group command failed due to org\.apache\.kafka\.common\.errors\.GroupIdNotFoundException: (.*)\n$`)
	javaTooOld        = regexp.MustCompile(`^\nError: Executing streams group command failed due to org\.apache\.kafka\.common\.errors\.UnsupportedVersionException: Attempted to write a non-default includeTopologyDescription at version 0\n$`)
	javaDeleteCause   = regexp.MustCompile(`(?m)^(\* Group '[^']*' could not be deleted due to: )([\w.]+): (.*)$`)
)

// replayCoordinator is the node id of the real single-node brokers
// (node.id=1), which the seeds make every group's coordinator.
const replayCoordinator = 1

// realAddrLen is the length of the real brokers' addresses
// (127.0.0.1:<5-digit port>): the coordinator cells of the views captures
// were padded for it before the address became ${BOOTSTRAP}.
const realAddrLen = len("127.0.0.1:36815")

// bootstrapCell is a captured coordinator cell, "${BOOTSTRAP} (1)" and its
// padding.
var bootstrapCell = regexp.MustCompile(`\$\{BOOTSTRAP\}( \(\d+\) +)`)

// withAddr puts addr where the capture says ${BOOTSTRAP}. The coordinator
// column is at least 25 wide (F65) and both addresses are shorter, so a
// shorter address than the real one (a 4-digit port) gets the difference
// as padding.
func withAddr(t *testing.T, s, addr string) string {
	require.LessOrEqual(t, len(addr), realAddrLen, addr)
	s = bootstrapCell.ReplaceAllStringFunc(s, func(cell string) string {
		return addr + strings.TrimPrefix(cell, "${BOOTSTRAP}") + strings.Repeat(" ", realAddrLen-len(addr))
	})
	return strings.ReplaceAll(s, "${BOOTSTRAP}", addr)
}

func TestReplayRealCaptures(t *testing.T) {
	t.Parallel()
	isolate(t)
	t.Run("every capture", func(t *testing.T) {
		replayed := map[string]bool{}
		for _, b := range replayBrokers {
			for _, step := range b.steps {
				assert.False(t, replayed[step.dir], "%s is replayed twice", step.dir)
				replayed[step.dir] = true
				for _, d := range step.diffs {
					assert.Contains(t, replayDifferences, d, "%s: unknown difference", step.dir)
				}
			}
		}
		entries, err := os.ReadDir(realCaptures)
		require.NoError(t, err)
		for _, e := range entries {
			_, skipped := replayNotReplayed[e.Name()]
			assert.True(t, replayed[e.Name()] != skipped, "%s: replay it or say in replayNotReplayed why not", e.Name())
		}
		for name := range replayNotReplayed {
			assert.DirExists(t, filepath.Join(realCaptures, name))
		}
	})
	for _, b := range replayBrokers {
		t.Run(b.name, func(t *testing.T) {
			r := startReplayCluster(t, b.seed)
			for _, step := range b.steps {
				if !t.Run(step.dir, func(t *testing.T) { replayStepRun(t, r, step) }) {
					return // later steps build on this one's broker state
				}
			}
		})
	}
}

// replayCluster is the playground standing in for one real broker.
type replayCluster struct {
	c    *playground.Cluster
	seed *playground.State
	// addr is the bootstrap address: node 1, the coordinator of every
	// group, alone, as the real single-node broker was.
	addr string
}

func startReplayCluster(t *testing.T, seed string) *replayCluster {
	if seed == "" {
		return &replayCluster{addr: closedPort(t)}
	}
	data, err := os.ReadFile(filepath.Join(realSeeds, seed))
	require.NoError(t, err)
	s, err := playground.ParseState(data)
	require.NoError(t, err)
	c := startCluster(t, s.Nodes, s.Profile)
	require.NoError(t, c.Load(s))
	return &replayCluster{c: c, seed: s, addr: c.Addrs()[replayCoordinator]}
}

// seedGroup returns a copy of a streams group of the seed.
func (r *replayCluster) seedGroup(t *testing.T, id string) playground.StreamsGroup {
	for _, g := range r.seed.StreamsGroups {
		if g.ID == id {
			return g.StreamsGroup
		}
	}
	t.Fatalf("the seed has no streams group %s", id)
	return playground.StreamsGroup{}
}

// setGroup puts the seed's group with another state and description status
// (the seed's description when AVAILABLE).
func setGroup(id, state string, status playground.DescriptionStatus) func(*testing.T, *replayCluster) {
	return func(t *testing.T, r *replayCluster) {
		g := r.seedGroup(t, id)
		g.State, g.DescriptionStatus = state, status
		if status != playground.StatusAvailable {
			g.Description = nil
		}
		require.NoError(t, r.c.Load(withGroup(r, g)))
	}
}

// wireRow sets a group's state and description status to a
// StreamsGroupDescribe row the real broker answered.
func wireRow(file string) func(*testing.T, *replayCluster) {
	return func(t *testing.T, r *replayCluster) {
		var row kmsg.StreamsGroupDescribeResponseGroup
		readWireJSON(t, file, &row)
		require.Zero(t, row.ErrorCode, file)
		setGroup(row.Group, row.State, playground.DescriptionStatus(row.TopologyDescriptionStatus))(t, r)
	}
}

// reload goes back to the seed, without faults, then applies rows.
func reload(rows ...string) func(*testing.T, *replayCluster) {
	return func(t *testing.T, r *replayCluster) {
		require.NoError(t, r.c.Load(r.seed))
		for _, f := range rows {
			wireRow(f)(t, r)
		}
	}
}

// deleteFails makes DeleteGroups of group answer what the real broker's
// failing plugin made it answer, until the next reload.
func deleteFails(group, file string) func(*testing.T, *replayCluster) {
	return func(t *testing.T, r *replayCluster) {
		var resp kmsg.DeleteGroupsResponse
		readWireJSON(t, file, &resp)
		require.Len(t, resp.Groups, 1)
		res := resp.Groups[0]
		require.Equal(t, group, res.Group)
		r.c.InjectError(playground.Fault{Key: 42, Group: group, ErrorCode: res.ErrorCode, ErrorMessage: res.ErrorMessage, Node: playground.AnyNode})
	}
}

// withGroup is the seed with one streams group replaced.
func withGroup(r *replayCluster, g playground.StreamsGroup) *playground.State {
	s := *r.seed
	s.StreamsGroups = slices.Clone(s.StreamsGroups)
	for i := range s.StreamsGroups {
		if s.StreamsGroups[i].ID == g.ID {
			s.StreamsGroups[i].StreamsGroup = g
		}
	}
	return &s
}

func replayStepRun(t *testing.T, r *replayCluster, step replayStep) {
	capture := readCapture(t, step.dir)
	if step.prep != nil {
		step.prep(t, r)
	}
	e := newReplayExpect(t, step, capture)
	for _, name := range step.diffs {
		d, ok := replayDifferences[name]
		require.True(t, ok, "unknown difference %q", name)
		d.apply(t, e)
	}

	args := make([]string, len(capture.args))
	for i, a := range capture.args {
		args[i] = strings.ReplaceAll(a, "${BOOTSTRAP}", r.addr)
	}
	want := withAddr(t, e.stdout(), r.addr)

	var stdout, stderr bytes.Buffer
	code := replayRun(t, args, &stdout, &stderr)
	requireSameBytes(t, want, stdout.String(), "stdout (differences applied: %v)", step.diffs)
	assert.Equal(t, e.exit, code, "exit code (Java: %d; differences applied: %v)", capture.exit, step.diffs)
	wantErr := ""
	if len(e.stderr) > 0 {
		wantErr = strings.Join(e.stderr, "\n") + "\n"
	}
	requireSameBytes(t, wantErr, stderr.String(), "stderr")
}

// replayCapture is one scenario directory of realCaptures.
type replayCapture struct {
	args           []string
	stdout, stderr string
	exit           int
}

func readCapture(t *testing.T, dir string) replayCapture {
	t.Helper()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(realCaptures, dir, name))
		require.NoError(t, err)
		return string(data)
	}
	c := replayCapture{stdout: read("stdout.txt"), stderr: read("stderr.txt")}
	if args := strings.TrimSuffix(read("args.txt"), "\n"); args != "" {
		c.args = strings.Split(args, "\n")
	}
	exit, err := strconv.Atoi(strings.TrimSpace(read("exit_code.txt")))
	require.NoError(t, err)
	c.exit = exit
	return c
}

// replayExpect is what we must print for a capture, built from it and
// changed by the differences.
type replayExpect struct {
	step    replayStep
	capture replayCapture
	// groups are the groups the command names, in the order the Java tool
	// handles them (request order; javaOrder for --all-groups).
	groups []string
	// blocks is stdout: one block per group when the view prints groups
	// one after the other, else one block.
	blocks []replayBlock
	stderr []string // our stderr lines
	exit   int
}

type replayBlock struct{ group, text string }

func newReplayExpect(t *testing.T, step replayStep, c replayCapture) *replayExpect {
	e := &replayExpect{step: step, capture: c, exit: c.exit, groups: groupArgs(c.args)}
	if step.javaOrder != nil {
		e.groups = step.javaOrder
	}
	var texts []string
	switch {
	case slices.Contains(c.args, "--describe") && slices.Contains(c.args, "--topology") && len(e.groups) > 0:
		texts = topologyBlocks(t, c.stdout)
		require.LessOrEqual(t, len(texts), len(e.groups), "more blocks than groups")
	case step.javaOrder != nil:
		texts = tableBlocks(c.stdout)
		require.Len(t, texts, len(e.groups), "one table per group in javaOrder")
	default:
		group := ""
		if len(e.groups) == 1 {
			group = e.groups[0]
		}
		e.blocks = []replayBlock{{group: group, text: c.stdout}}
		return e
	}
	for i, text := range texts {
		e.blocks = append(e.blocks, replayBlock{group: e.groups[i], text: text})
	}
	return e
}

func (e *replayExpect) stdout() string {
	var b strings.Builder
	for _, bl := range e.blocks {
		b.WriteString(bl.text)
	}
	return b.String()
}

// groupErrors moves every block that is a Java group-level exception
// matching re from stdout to one stderr line.
func (e *replayExpect) groupErrors(t *testing.T, re *regexp.Regexp, line func(group string, m []string) string) {
	found := false
	kept := e.blocks[:0]
	for _, b := range e.blocks {
		if m := re.FindStringSubmatch(b.text); m != nil {
			require.NotEmpty(t, b.group, "the group of %q", b.text)
			e.stderr = append(e.stderr, line(b.group, m))
			found = true
			continue
		}
		kept = append(kept, b)
	}
	require.True(t, found, "no such group error in the capture")
	e.blocks = kept
}

// groupArgs returns the values of --group, in order.
func groupArgs(args []string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--group" {
			out = append(out, args[i+1])
		}
	}
	return out
}

// topologyBlocks splits --describe --topology output into one block per
// group: the topology text, which ends with a blank line and the extra
// line feed of println (F22), or an "\nError: ...\n" line (F21, F27).
func topologyBlocks(t *testing.T, s string) []string {
	var out []string
	for s != "" {
		var n int
		switch {
		case strings.HasPrefix(s, "Topologies:\n"):
			i := strings.Index(s, "\n\n\n")
			require.GreaterOrEqual(t, i, 0, "unterminated topology: %q", s)
			n = i + 3
		case strings.HasPrefix(s, "\nError: "):
			i := strings.IndexByte(s[1:], '\n')
			require.GreaterOrEqual(t, i, 0, "unterminated error line: %q", s)
			n = i + 2
		default:
			t.Fatalf("not a topology block: %q", s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// tableBlocks splits the output of a --describe table view into one block
// per table; a "\nError: Streams group '<g>' has no active members.\n"
// line belongs to the table that follows it (F68).
func tableBlocks(s string) []string {
	var out []string
	cur := ""
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "GROUP ") && strings.Contains(cur, "GROUP ") {
			out = append(out, cur)
			cur = ""
		}
		cur += l
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// sortRows sorts the rows that follow each "GROUP " header line by cmp over
// their fields; a block without a header is all rows.
func sortRows(s string, cmp func(a, b []string) int) string {
	lines := strings.SplitAfter(s, "\n")
	isRow := func(l string) bool {
		return l != "" && l != "\n" && !strings.HasPrefix(l, "GROUP ") && !strings.HasPrefix(l, "Error: ")
	}
	for i := 0; i < len(lines); {
		if !isRow(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && isRow(lines[j]) {
			j++
		}
		slices.SortStableFunc(lines[i:j], func(a, b string) int { return cmp(strings.Fields(a), strings.Fields(b)) })
		i = j
	}
	return strings.Join(lines, "")
}

// sortTableRows sorts the rows of the members and offsets tables as we
// print them: by MEMBER, or by TOPIC and then PARTITION, the columns named
// in each table's header.
func sortTableRows(t *testing.T, s string) string {
	var header []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "GROUP ") {
			header = strings.Fields(l)
			break
		}
	}
	require.NotNil(t, header, "no table header in %q", s)
	col := func(name string) int { return slices.Index(header, name) }
	if m := col("MEMBER"); m >= 0 {
		return sortRows(s, func(a, b []string) int { return strings.Compare(a[m], b[m]) })
	}
	tp, p := col("TOPIC"), col("PARTITION")
	require.True(t, tp >= 0 && p >= 0, "neither a members nor an offsets table: %v", header)
	return sortRows(s, func(a, b []string) int {
		if c := strings.Compare(a[tp], b[tp]); c != 0 {
			return c
		}
		pa, _ := strconv.Atoi(a[p])
		pb, _ := strconv.Atoi(b[p])
		return pa - pb
	})
}

// quotedGroup returns g from "* Group 'g' could not be deleted ...".
func quotedGroup(line string) string {
	_, rest, _ := strings.Cut(line, "'")
	g, _, _ := strings.Cut(rest, "'")
	return g
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func readWireJSON(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realWire, file))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v), file)
}

// requireSameBytes fails with the first differing line, quoted so spaces
// and line feeds show, and both texts in full.
func requireSameBytes(t *testing.T, want, got string, msgAndArgs ...any) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	at := func(l []string) string {
		if i < len(l) {
			return strconv.Quote(l[i])
		}
		return "<end>"
	}
	assert.Fail(t, fmt.Sprintf("differs at line %d:\n want: %s\n  got: %s\n--- want (%d bytes)\n%q\n--- got (%d bytes)\n%q",
		i+1, at(wl), at(gl), len(want), want, len(got), got), msgAndArgs...)
}

func TestReplay_withAddr(t *testing.T) {
	t.Parallel()
	const captured = "em-app          ${BOOTSTRAP} (1)       sticky          Empty                     0\n"
	for addr, want := range map[string]string{
		"127.0.0.1:45678": "em-app          127.0.0.1:45678 (1)       sticky          Empty                     0\n",
		"127.0.0.1:9092":  "em-app          127.0.0.1:9092 (1)        sticky          Empty                     0\n",
	} {
		assert.Equal(t, want, withAddr(t, captured, addr), addr)
	}
	assert.Equal(t, "--bootstrap-server 127.0.0.1:9092", withAddr(t, "--bootstrap-server ${BOOTSTRAP}", "127.0.0.1:9092"))
}
