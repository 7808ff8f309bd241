package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	groupdelete "github.com/kstreams-groups/kstreams-groups/internal/delete"
	"github.com/kstreams-groups/kstreams-groups/internal/deleteoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/describe"
	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/resetoffsets"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
)

// runWith runs one command line with deps and captured streams.
func runWith(t *testing.T, d deps, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := testRun(t, args, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, d)
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// noClient fails the test if a Kafka client is built: usage errors must be
// found before anything connects.
func noClient(t *testing.T) deps {
	return deps{newClient: func(admin.Config) (client, error) {
		t.Error("a Kafka client was built for an invalid command line")
		return nil, errors.New("no client")
	}}
}

// Every invalid command line that both forms can express fails with the
// same message, the same exit code and nothing sent, because both forms
// run one validation in the Java tool's order.
func TestValidation_bothForms(t *testing.T) {
	t.Parallel()
	const bs = "127.0.0.1:9"
	tests := []struct {
		name      string
		kafka     []string // the kafka-streams-groups.sh form
		sub       []string // the subcommand form
		wantError string   // the first stderr line
	}{
		{"describe without bootstrap or group", []string{"--describe", "--topology"}, []string{"describe", "--topology"}, `Missing required argument "[bootstrap-server]"`},
		{"delete without bootstrap or group", []string{"--delete"}, []string{"delete"}, `Missing required argument "[bootstrap-server]"`},
		{"list without bootstrap", []string{"--list"}, []string{"list"}, `Missing required argument "[bootstrap-server]"`},
		{"list --state without bootstrap", []string{"--list", "--state", "foo"}, []string{"list", "--state", "foo"}, `Missing required argument "[bootstrap-server]"`},
		{"describe without group", []string{"--bootstrap-server", bs, "--describe"}, []string{"--bootstrap-server", bs, "describe"}, "Option [describe] takes one of these options: [all-groups], [group]"},
		{"delete without group", []string{"--bootstrap-server", bs, "--delete", "--dry-run"}, []string{"--bootstrap-server", bs, "delete", "--dry-run"}, "Option [delete] takes one of these options: [all-groups], [group]"},
		{"describe two views", []string{"--bootstrap-server", bs, "--describe", "--group", "g", "--members", "--offsets"}, []string{"--bootstrap-server", bs, "describe", "--group", "g", "--members", "--offsets"}, "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]"},
		{"views before the group conflict", []string{"--bootstrap-server", bs, "--describe", "--group", "g", "--all-groups", "--state", "--topology"}, []string{"--bootstrap-server", bs, "describe", "--group", "g", "--all-groups", "--state", "--topology"}, "Option [describe] takes at most one of these options: [members], [offsets], [state], [topology]"},
		{"describe --state with a value", []string{"--bootstrap-server", bs, "--describe", "--group", "g", "--state", "Stable"}, []string{"--bootstrap-server", bs, "describe", "--group", "g", "--state", "Stable"}, "Option [describe] does not take a value for [state]"},
		{"describe --state= with a value", []string{"--bootstrap-server", bs, "--describe", "--group", "g", "--state=Empty"}, []string{"--bootstrap-server", bs, "describe", "--group", "g", "--state=Empty"}, "Option [describe] does not take a value for [state]"},
		{"describe group and all groups", []string{"--bootstrap-server", bs, "--describe", "--group", "g", "--all-groups"}, []string{"--bootstrap-server", bs, "describe", "--group", "g", "--all-groups"}, `Option "[group]" can't be used with option "[all-groups]"`},
		{"delete group and all groups", []string{"--bootstrap-server", bs, "--delete", "--group", "g", "--all-groups"}, []string{"--bootstrap-server", bs, "delete", "--group", "g", "--all-groups"}, `Option "[group]" can't be used with option "[all-groups]"`},
		{"list bad state", []string{"--bootstrap-server", bs, "--list", "--state", "foo"}, []string{"--bootstrap-server", bs, "list", "--state", "foo"}, "Invalid state list 'foo'. Valid states are: Empty, NotReady, Stable, Assigning, Reconciling, Dead"},
		{"list bad state among good ones", []string{"--bootstrap-server", bs, "--list", "--state=Stable,x"}, []string{"--bootstrap-server", bs, "list", "--state=Stable,x"}, "Invalid state list 'Stable,x'. Valid states are: Empty, NotReady, Stable, Assigning, Reconciling, Dead"},
		{"describe drawing without topology", []string{"--bootstrap-server", bs, "--describe", "--group", "g", "-o", "dot"}, []string{"--bootstrap-server", bs, "describe", "--group", "g", "-o", "dot"}, "-o dot: describe prints text, json or yaml, and dot, mermaid, svg or png with --topology; -o dot is printed by describe --topology, overview and render"},
		{"list drawing", []string{"--bootstrap-server", bs, "--list", "-o", "mermaid"}, []string{"--bootstrap-server", bs, "list", "-o", "mermaid"}, "-o mermaid: list prints text, json or yaml, and prometheus with --state; -o mermaid is printed by describe --topology, overview and render"},
		{"delete drawing", []string{"--bootstrap-server", bs, "--delete", "--group", "g", "-o", "dot"}, []string{"--bootstrap-server", bs, "delete", "--group", "g", "-o", "dot"}, "-o dot: delete prints text, json or yaml; -o dot is printed by describe --topology, overview and render"},
		{"unknown output", []string{"--bootstrap-server", bs, "--list", "-o", "xml"}, []string{"--bootstrap-server", bs, "list", "-o", "xml"}, `unknown output format "xml" (want text, json, yaml, dot, mermaid, svg, png, prometheus)`},
		{"bad timeout", []string{"--bootstrap-server", bs, "--list", "--timeout", "0"}, []string{"--bootstrap-server", bs, "list", "--timeout", "0"}, "invalid timeout 0: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
	}
	tests = append(tests, offsetValidationCases(t, bs)...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for form, args := range map[string][]string{"kafka form": tc.kafka, "subcommand": tc.sub} {
				r := runWith(t, noClient(t), args...)
				assert.Equal(t, exitUsage, r.code, "%s: %v", form, args)
				first, _, _ := strings.Cut(r.stderr, "\n")
				assert.Equal(t, tc.wantError, first, "%s: %v", form, args)
				hint := "Run 'kstreams-groups --help' for usage.\n"
				if form == "subcommand" {
					// The subcommand's own help.
					hint = "Run 'kstreams-groups " + subcommandOf(tc.sub) + " --help' for usage.\n"
				}
				assert.True(t, strings.HasSuffix(r.stderr, hint), "%s: %q", form, r.stderr)
				assert.Empty(t, r.stdout, form)
			}
		})
	}
}

// The Kafka form alone can name options without their action or several
// actions; it checks them in the Java tool's order too.
func TestValidation_kafkaForm(t *testing.T) {
	t.Parallel()
	const bs = "127.0.0.1:9"
	tests := []struct {
		args      []string
		wantError string
	}{
		{[]string{"--topology", "--group", "g"}, "Option(s) [topology] are unavailable given other options on the command line"},
		{[]string{"--bootstrap-server", bs, "--list", "--members"}, "Option(s) [members] are unavailable given other options on the command line"},
		{[]string{"--bootstrap-server", bs, "--delete", "--state"}, "Option(s) [state] are unavailable given other options on the command line"},
		{[]string{"--bootstrap-server", bs, "--describe", "--group", "g", "--dry-run"}, "Only Option [reset-offsets] accepts [execute] or [dry-run]"},
		{[]string{"--bootstrap-server", bs, "--describe", "--group", "g", "--all-groups", "--dry-run"}, "Only Option [reset-offsets] accepts [execute] or [dry-run]"},
		{[]string{"--bootstrap-server", bs, "--list", "--delete-all-internal-topics"}, "Option [delete-all-internal-topics] takes one of these options: [delete], [reset-offsets]"},
		{[]string{"--bootstrap-server", bs, "--list", "--describe", "--group", "g", "--members"}, `Option "[list]" can't be used with option "[members]"`},
		{[]string{"--bootstrap-server", bs, "--list", "--group", "g"}, `Option "[group]" can't be used with option "[list]"`},
		{[]string{"--bootstrap-server", bs, "--describe", "--delete", "--group", "g"}, "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets."},
		{[]string{"--bootstrap-server", bs, "--group", "g"}, "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets."},
		// The offset verbs' options with other actions, in the Java order.
		{[]string{"--bootstrap-server", bs, "--delete", "--group", "g", "--input-topic", "t"}, "Kafka Streams does not support topic-specific offset deletion from a streams group."},
		{[]string{"--bootstrap-server", bs, "--delete", "--group", "g", "--all-input-topics", "--dry-run"}, "Kafka Streams does not support topic-specific offset deletion from a streams group."},
		{[]string{"--bootstrap-server", bs, "--delete", "--input-topic", "t"}, "Option [delete] takes one of these options: [all-groups], [group]"},
		{[]string{"--bootstrap-server", bs, "--delete", "--group", "g", "--execute"}, "Only Option [reset-offsets] accepts [execute] or [dry-run]"},
		{[]string{"--bootstrap-server", bs, "--list", "--execute"}, "Only Option [reset-offsets] accepts [execute] or [dry-run]"},
		{[]string{"--bootstrap-server", bs, "--delete-offsets", "--group", "g", "--all-input-topics", "--dry-run"}, "Only Option [reset-offsets] accepts [execute] or [dry-run]"},
		{[]string{"--bootstrap-server", bs, "--list", "--delete-internal-topic", "t"}, "Option [delete-internal-topic] takes [reset-offsets] when [execute] is used."},
		{[]string{"--bootstrap-server", bs, "--describe", "--group", "g", "--delete-all-internal-topics", "--delete-internal-topic", "t"}, "Option [delete-all-internal-topics] takes one of these options: [delete], [reset-offsets]"},
		{[]string{"--bootstrap-server", bs, "--describe", "--group", "g", "--input-topic", "t"}, `Option "[input-topic]" can't be used with option "[describe]"`},
		{[]string{"--bootstrap-server", bs, "--list", "--input-topic", "t"}, `Option "[input-topic]" can't be used with option "[list]"`},
		{[]string{"--bootstrap-server", bs, "--delete-offsets", "--group", "g", "--all-groups", "--all-input-topics"}, `Option "[group]" can't be used with option "[all-groups]"`},
		{[]string{"--bootstrap-server", bs, "--delete-offsets", "--all-groups", "--input-topic", "t"}, "Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]"},
		{[]string{"--bootstrap-server", bs, "--delete-offsets", "--group", "g", "--all-input-topics", "--reset-offsets", "--to-earliest", "--dry-run"}, "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets."},
		{[]string{"--bootstrap-server", bs, "--delete-offsets", "--reset-offsets", "--group", "g", "--dry-run"}, "Option [delete-offsets] takes the [group] and one of these options: [all-input-topics], [input-topic]"},
		{[]string{"--bootstrap-server", bs, "--delete", "--reset-offsets", "--group", "g"}, "Option [reset-offsets] takes the option: [execute] or [dry-run]"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			isolate(t)
			r := runWith(t, noClient(t), tc.args...)
			assert.Equal(t, exitUsage, r.code)
			first, _, _ := strings.Cut(r.stderr, "\n")
			assert.Equal(t, tc.wantError, first)
		})
	}
}

// Both forms hand a verb the same options (the runF seam: no broker).
func TestOptions_bothForms(t *testing.T) {
	t.Parallel()
	const bs = "127.0.0.1:9"
	tests := []struct {
		name       string
		kafka, sub []string
		wantVerb   string
		want       any
	}{
		{"describe topology", []string{"--describe", "--topology", "--group", "a", "--group", "b"}, []string{"describe", "--topology", "--group", "a", "--group", "b"},
			"describe", describe.Options{Groups: []string{"a", "b"}, Topology: true}},
		{"describe state verbose", []string{"--describe", "--state", "--verbose", "--all-groups"}, []string{"describe", "--state", "--verbose", "--all-groups"},
			"describe", describe.Options{AllGroups: true, State: true, Verbose: true}},
		{"describe default view", []string{"--describe", "--group", "g"}, []string{"describe", "--group", "g"},
			"describe", describe.Options{Groups: []string{"g"}}},
		{"list", []string{"--list"}, []string{"list"}, "list", &list.Options{}},
		{"list states", []string{"--list", "--state", "stable,EMPTY"}, []string{"list", "--state", "stable,EMPTY"},
			"list", &list.Options{WithState: true, States: []string{"Stable", "Empty"}}},
		{"list state table", []string{"--list", "--state"}, []string{"list", "--state"}, "list", &list.Options{WithState: true}},
		{"delete", []string{"--delete", "--group", "g", "--dry-run", "--delete-all-internal-topics"}, []string{"delete", "--group", "g", "--dry-run", "--delete-all-internal-topics"},
			"delete", groupdelete.Options{Groups: []string{"g"}, DryRun: true, DeleteInternalTopics: true}},
		{"delete named internal topics", []string{"--delete", "--group", "g", "--delete-internal-topic", "g-a-changelog", "--delete-internal-topic", "g-b-repartition"},
			[]string{"delete", "--group", "g", "--delete-internal-topic", "g-a-changelog", "--delete-internal-topic", "g-b-repartition"},
			"delete", groupdelete.Options{Groups: []string{"g"}, InternalTopics: []string{"g-a-changelog", "g-b-repartition"}}},
		{"reset-offsets", []string{"--reset-offsets", "--group", "a", "--group", "b", "--input-topic", "t:0,1", "--input-topic", "u", "--to-offset", "-5", "--execute", "--export", "--delete-internal-topic", "a-x-changelog"},
			[]string{"reset-offsets", "--group", "a", "--group", "b", "--input-topic", "t:0,1", "--input-topic", "u", "--to-offset", "-5", "--execute", "--export", "--delete-internal-topic", "a-x-changelog"},
			"reset-offsets", resetoffsets.Options{Groups: []string{"a", "b"}, InputTopics: []string{"t:0,1", "u"}, ToOffset: strPtr("-5"), Execute: true, Export: true, DeleteInternalTopics: []string{"a-x-changelog"}}},
		{"reset-offsets every scenario flag", []string{"--reset-offsets", "--all-groups", "--all-input-topics", "--by-duration", "PT1H", "--dry-run"},
			[]string{"reset-offsets", "--all-groups", "--all-input-topics", "--by-duration", "PT1H", "--dry-run"},
			"reset-offsets", resetoffsets.Options{AllGroups: true, AllInputTopics: true, ByDuration: strPtr("PT1H"), DryRun: true}},
		{"reset-offsets execute and delete all", []string{"--reset-offsets", "--group", "g", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"},
			[]string{"reset-offsets", "--group", "g", "--all-input-topics", "--to-earliest", "--execute", "--delete-all-internal-topics"},
			"reset-offsets", resetoffsets.Options{Groups: []string{"g"}, AllInputTopics: true, ToEarliest: true, Execute: true, DeleteAllInternalTopics: true}},
		{"delete-offsets", []string{"--delete-offsets", "--group", "g", "--input-topic", "t:2", "--all-input-topics"},
			[]string{"delete-offsets", "--group", "g", "--input-topic", "t:2", "--all-input-topics"},
			"delete-offsets", deleteoffsets.Options{Groups: []string{"g"}, AllInputTopics: true, InputTopics: []string{"t:2"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			for form, args := range map[string][]string{"kafka form": tc.kafka, "subcommand": tc.sub} {
				var gotVerb string
				var got any
				d := noClient(t)
				d.runF = func(verb string, opts any) error { gotVerb, got = verb, opts; return nil }
				r := runWith(t, d, append([]string{"--bootstrap-server", bs}, args...)...)
				require.Equal(t, 0, r.code, "%s: %s", form, r.stderr)
				assert.Equal(t, tc.wantVerb, gotVerb, form)
				assert.Equal(t, tc.want, got, form)
			}
		})
	}
}

// fakeClient answers the verbs from memory, for rendering tests that need
// no TCP broker (the deps seam). It embeds the client interface (nil), so
// that a verb's new Client method needs no edit here until a test calls
// it: a call of a method the fake lacks panics, naming it in the trace.
type fakeClient struct {
	client // embedded for its method set only: the fake is a client without each method written out
	groups map[string]*kafka.StreamsGroup
	err    map[string]error
	closed bool
}

func (f *fakeClient) DescribeStreamsGroups(_ context.Context, groups []string, _ bool) []admin.DescribedGroup {
	out := make([]admin.DescribedGroup, len(groups))
	for i, g := range groups {
		out[i] = admin.DescribedGroup{Group: g, Coordinator: kafka.Broker{ID: 1, Host: "broker-1", Port: 9092}, Streams: f.groups[g], Err: f.err[g]}
		if f.groups[g] == nil && f.err[g] == nil {
			out[i].Err = admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil)
		}
	}
	return out
}

func (f *fakeClient) ListStreamsGroups(context.Context) ([]admin.ListedGroup, error) {
	var out []admin.ListedGroup
	for g, sg := range f.groups {
		out = append(out, admin.ListedGroup{Group: g, State: sg.State})
	}
	return out, nil
}

func (f *fakeClient) ListStreamsGroupsInStates(ctx context.Context, _ []string) ([]admin.ListedGroup, error) {
	return f.ListStreamsGroups(ctx)
}

func (f *fakeClient) FetchCommittedOffsets(context.Context, []string) []admin.GroupOffsets {
	return nil
}

func (f *fakeClient) ListOffsets(context.Context, []kafka.TopicPartition, int64) ([]admin.ListedOffset, error) {
	return nil, nil
}

func (f *fakeClient) LoadTopics(context.Context, []string) {}

func (f *fakeClient) DeleteGroups(context.Context, []string) []admin.DeletedGroup { return nil }

func (f *fakeClient) DeleteTopics(context.Context, []string) []admin.DeletedTopic { return nil }

func (f *fakeClient) DescribeTopics(context.Context, []string) ([]admin.TopicInfo, error) {
	return nil, nil
}

func (f *fakeClient) CommitOffsets(context.Context, []admin.GroupCommit) []admin.CommitResult {
	return nil
}

func (f *fakeClient) DeleteOffsets(_ context.Context, group string, _ []kafka.TopicPartition) admin.DeletedOffsets {
	return admin.DeletedOffsets{Group: group}
}

func (f *fakeClient) BrokerAPIs(context.Context, kafka.Broker) (*kafka.BrokerAPIs, error) {
	return nil, errors.New("not in the fake")
}

func (f *fakeClient) DescribeBrokerConfigs(context.Context, kafka.Broker, []string) ([]kafka.BrokerConfig, error) {
	return nil, errors.New("not in the fake")
}

func (f *fakeClient) ListAllGroups(context.Context) ([]admin.AnyGroup, error) { return nil, nil }

func (f *fakeClient) ListAllTopics(context.Context) (*admin.ClusterTopics, error) {
	return &admin.ClusterTopics{}, nil
}

func (f *fakeClient) DescribeTopicConfigs(context.Context, []string, []string) ([]admin.TopicConfigs, error) {
	return nil, nil
}

func (f *fakeClient) DescribeLogDirs(context.Context) (*admin.LogDirSizes, error) {
	return &admin.LogDirSizes{}, nil
}

func (f *fakeClient) FetchFirstRecords(context.Context, []admin.FirstRecordQuery) ([]admin.FirstRecord, admin.FetchStats, error) {
	return nil, admin.FetchStats{}, nil
}

func (f *fakeClient) FetchShareGroupOffsets(context.Context, []string) []admin.GroupOffsets {
	return nil
}

func (f *fakeClient) ListGroupConfigResources(context.Context) ([]string, error) { return nil, nil }

func (f *fakeClient) DescribeGroupConfigs(_ context.Context, groups []string) []kafka.GroupConfigs {
	out := make([]kafka.GroupConfigs, len(groups))
	for i, g := range groups {
		out[i].Group = g
	}
	return out
}

func (f *fakeClient) AlterGroupConfigs(_ context.Context, alters []admin.GroupConfigAlter, _ bool) []admin.AlteredGroupConfig {
	out := make([]admin.AlteredGroupConfig, len(alters))
	for i, a := range alters {
		out[i].Group = a.Group
	}
	return out
}

func (f *fakeClient) Close() { f.closed = true }

func fakeDeps(f *fakeClient) deps {
	return deps{newClient: func(admin.Config) (client, error) { return f, nil }}
}

// The rendering path runs on a fake client: stdout, stderr and the exit
// code of a verb, without any broker.
func TestRun_fakeClient(t *testing.T) {
	t.Parallel()
	isolate(t)
	f := &fakeClient{groups: map[string]*kafka.StreamsGroup{
		"orders": {State: "Stable", GroupEpoch: 7, AssignmentEpoch: 7, TopologyEpoch: 1, TopologyStatus: topology.NotStored},
	}}
	r := runWith(t, fakeDeps(f), "--bootstrap-server", "fake:9092", "--describe", "--state", "--group", "orders")
	assert.Equal(t, result{stdout: "GROUP           COORDINATOR (ID)          ASSIGNOR        STATE                     #MEMBERS\n" +
		"orders          broker-1:9092 (1)                         Stable                    0\n"}, r)
	assert.True(t, f.closed, "the client is closed")

	r = runWith(t, fakeDeps(f), "--bootstrap-server", "fake:9092", "describe", "--topology", "--group", "orders", "--detailed-exit-codes")
	assert.Equal(t, result{stdout: "\nError: No topology description is stored for streams group 'orders'.\n", code: exitNotStored}, r)
}

// One classification decides both the exit code and the document's error
// name: a SASL failure exits 6 and its document says AUTHENTICATION_FAILED
// (it said ERROR while the two were classified apart).
func TestClassification_exitCodeAndDocumentAgree(t *testing.T) {
	t.Parallel()
	isolate(t)
	tests := []struct {
		name     string
		err      error
		wantCode int
		wantName string
	}{
		{"sasl", &kafka.ConnectError{Failure: kafka.AuthFailed, Err: errors.New("SASL_AUTHENTICATION_FAILED: Authentication failed: Invalid username or password")}, exitNotAuthorized, "AUTHENTICATION_FAILED"},
		{"tls", &kafka.ConnectError{Failure: kafka.TLSFailed, Err: errors.New("x509: certificate signed by unknown authority")}, exitUnavailable, "TLS_FAILED"},
		{"acl", admin.NewKafkaError(kafka.CodeGroupAuthorizationFailed, nil), exitNotAuthorized, "GROUP_AUTHORIZATION_FAILED"},
		{"timeout", &kafka.UnavailableError{Op: "StreamsGroupDescribe", Err: context.DeadlineExceeded}, exitUnavailable, "UNAVAILABLE"},
		{"too old", &kafka.BrokerTooOldError{NodeID: 1, API: "StreamsGroupDescribe", Need: 1, Have: 0, Feature: "topology descriptions"}, exitTooOld, "BROKER_TOO_OLD"},
		{"malformed", &kafka.MalformedError{Reason: "x"}, exitFailure, "MALFORMED_RESPONSE"},
		{"not found", admin.NewKafkaError(kafka.CodeGroupIDNotFound, nil), exitNotFound, "GROUP_ID_NOT_FOUND"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeClient{err: map[string]error{"g": tc.err}}
			r := runWith(t, fakeDeps(f), "--bootstrap-server", "fake:9092", "describe", "--topology", "--group", "g", "-o", "json", "--detailed-exit-codes")
			assert.Equal(t, tc.wantCode, r.code, r.stderr)
			assert.Contains(t, r.stdout, `"name": "`+tc.wantName+`"`)
			assert.Equal(t, categoryCodes[kafka.Classify(tc.err).Category], r.code)
		})
	}
}

// subcommandOf is the subcommand of a command line: its first word that is
// not an option or an option's value (the options before it take one).
func subcommandOf(args []string) string {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--bootstrap-server", args[i] == "--timeout", args[i] == "-o", args[i] == "--command-config":
			i++
		case !strings.HasPrefix(args[i], "-"):
			return args[i]
		}
	}
	return ""
}
