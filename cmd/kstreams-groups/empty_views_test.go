package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Where Kafka's tool prints nothing for a view (or only its header), stdout
// stays Kafka's and one line on stderr says why, in both forms; exit 0.
// fraud-detector is the seed's Empty group, with no committed offset.
func TestEmptyViews_sayWhyOnStderr(t *testing.T) {
	t.Parallel()
	isolate(t)
	bs := bootstrap(seedCluster(t))
	tests := []struct {
		name           string
		args           []string
		stdout, stderr string
	}{
		{name: "offsets of an Empty group", args: []string{"--describe", "--group", "fraud-detector"},
			stderr: "Streams group 'fraud-detector' has no members: the offsets view shows only the partitions of members' active tasks (its committed offsets: reset-offsets --all-input-topics --to-current --dry-run).\n"},
		{name: "offsets subcommand", args: []string{"describe", "--offsets", "--group", "fraud-detector"},
			stderr: "Streams group 'fraud-detector' has no members: the offsets view shows only the partitions of members' active tasks (its committed offsets: reset-offsets --all-input-topics --to-current --dry-run).\n"},
		{name: "members of an Empty group", args: []string{"--describe", "--members", "--group", "fraud-detector"},
			stderr: "Streams group 'fraud-detector' has no members: the members view has nothing to show.\n"},
		{name: "list, no group in the state", args: []string{"--list", "--state", "Dead"},
			stdout: "GROUP           STATE\n", stderr: "No streams group is in state Dead.\n"},
		{name: "reset plan with no partition", args: []string{"reset-offsets", "--group", "fraud-detector", "--all-input-topics", "--to-current", "--dry-run"},
			stdout: "\nGROUP                          TOPIC                          PARTITION  NEW-OFFSET     \n",
			stderr: "The plan of streams group 'fraud-detector' is empty: it has no committed offset on the partitions selected.\n"},
		{name: "delete-offsets with no partition", args: []string{"--delete-offsets", "--group", "fraud-detector", "--all-input-topics"},
			stdout: "Request succeeded for deleting offsets from group fraud-detector.\n\nTOPIC           PARTITION  STATUS         \n",
			stderr: "Nothing to delete for streams group 'fraud-detector': it has no committed offset on the partitions selected.\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"--bootstrap-server", bs}, tc.args...)...)
			assert.Equal(t, result{stdout: tc.stdout, stderr: tc.stderr, code: 0}, r)
		})
	}
	// A view with rows says nothing more.
	r := runCLI(t, "--bootstrap-server", bs, "--describe", "--group", "page-views")
	assert.Equal(t, 0, r.code)
	assert.NotEmpty(t, r.stdout)
	assert.Empty(t, r.stderr)
}
