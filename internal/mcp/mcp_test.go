package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCut(t *testing.T) {
	t.Parallel()
	list := make([]any, 40)
	for i := range list {
		list[i] = map[string]any{"group": strings.Repeat("g", 30), "n": i}
	}
	big, _ := json.Marshal(map[string]any{"groups": list, "at": "now"})
	flat, _ := json.Marshal(map[string]any{"text": strings.Repeat("é", 2000)})
	tests := []struct {
		name      string
		doc       []byte
		budget, n int
		pages     int    // 0: not paged
		cut       bool   // a string of the first bytes
		err       string // a refused page
	}{
		{name: "within the budget: whole", doc: []byte(`{"a":1}`), budget: 1024, n: 1},
		{name: "within, page 2 is past the last", doc: []byte(`{"a":1}`), budget: 1024, n: 2, err: "past the last"},
		{name: "over: paged", doc: big, budget: 1024, n: 1, pages: 3},
		{name: "over: the last page", doc: big, budget: 1024, n: 3, pages: 3},
		{name: "over: past the last", doc: big, budget: 1024, n: 4, err: "has 3 pages"},
		{name: "no list: cut at a character", doc: flat, budget: 1001, n: 1, cut: true},
		{name: "not JSON: cut", doc: []byte(strings.Repeat("x", 2000)), budget: 1024, n: 1, cut: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := cut(tc.doc, tc.budget, tc.n)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			switch {
			case tc.cut:
				s, ok := p.doc.(string)
				require.True(t, ok)
				assert.LessOrEqual(t, len(s), tc.budget)
				assert.True(t, strings.HasPrefix(string(tc.doc), s))
				assert.True(t, json.Valid([]byte(`"`+s[len(s)-2:]+`"`)) || !strings.HasPrefix(string(tc.doc), "{"), "cut at a character's start")
				assert.Contains(t, p.note, "cut to its first")
			case tc.pages > 0:
				b := p.doc.(json.RawMessage)
				assert.LessOrEqual(t, len(b), tc.budget)
				info := p.extra["page"].(map[string]any)
				assert.Equal(t, tc.pages, info["pages"])
				assert.Equal(t, "groups", info["list"])
				assert.Contains(t, p.note, "page")
			default:
				assert.JSONEq(t, string(tc.doc), string(p.doc.(json.RawMessage)))
				assert.Empty(t, p.note)
			}
		})
	}
}

func TestRedactArgs(t *testing.T) {
	t.Parallel()
	in := map[string]any{
		"group":          []any{"orders"},
		ApprovalArgument: "abc.def",
		"set":            []any{"streams.num.standby.replicas=1", "sasl.jaas.config=x password=y", "ssl.key.password=p"},
		"nested":         map[string]any{"client_secret": "s", "ok": "v"},
	}
	got, _ := json.Marshal(redactArgs(in))
	assert.JSONEq(t, `{"group":["orders"],"_approval_token":"[redacted]",
		"set":["streams.num.standby.replicas=1","sasl.jaas.config=[redacted]","ssl.key.password=[redacted]"],
		"nested":{"client_secret":"[redacted]","ok":"v"}}`, string(got))
}

func TestGuard_tokens(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	g, err := newGuard([]byte("k"), func() time.Time { return now }, nil)
	require.NoError(t, err)
	args := map[string]any{"group": []any{"a"}}
	plan := []byte(`{"p":1}`)
	token := g.mint("reset_offsets", args, plan, "s1")
	require.NoError(t, g.verify(token, "reset_offsets", args, plan, "s1"))
	for name, refused := range map[string]func() error{
		"another tool":    func() error { return g.verify(token, "delete", args, plan, "s1") },
		"other arguments": func() error { return g.verify(token, "reset_offsets", map[string]any{"group": []any{"b"}}, plan, "s1") },
		"another plan":    func() error { return g.verify(token, "reset_offsets", args, []byte(`{"p":2}`), "s1") },
		"a changed group": func() error { return g.verify(token, "reset_offsets", args, plan, "s2") },
		"a forged token":  func() error { return g.verify(token[:len(token)-1]+"0", "reset_offsets", args, plan, "s1") },
		"not a token":     func() error { return g.verify("x", "reset_offsets", args, plan, "s1") },
		"another server's": func() error {
			g2, _ := newGuard(nil, g.now, nil)
			return g2.verify(token, "reset_offsets", args, plan, "s1")
		},
		"an expired token": func() error {
			late, _ := newGuard([]byte("k"), func() time.Time { return now.Add(tokenTTL + time.Second) }, nil)
			return late.verify(token, "reset_offsets", args, plan, "s1")
		},
	} {
		err := refused()
		require.Error(t, err, name)
		assert.Equal(t, outcomeApprovalRequired, outcomeOf(err), name)
	}
}

func TestGuard_scope(t *testing.T) {
	t.Parallel()
	g, err := newGuard(nil, time.Now, []string{"team-a-"})
	require.NoError(t, err)
	tool := Tool{GroupArguments: []string{"group"}, AllGroupsArguments: []string{"all-groups"}}
	assert.NoError(t, g.scope(tool, map[string]any{"group": []any{"team-a-orders"}}))
	assert.Equal(t, outcomeScopeViolation, outcomeOf(g.scope(tool, map[string]any{"group": []any{"team-a-orders", "team-b-x"}})))
	assert.Equal(t, outcomeScopeViolation, outcomeOf(g.scope(tool, map[string]any{"all-groups": true})))
	assert.Equal(t, outcomeScopeViolation, outcomeOf(g.scope(tool, map[string]any{})), "no group named: every group")
	assert.Equal(t, outcomeScopeViolation, outcomeOf(g.scope(Tool{}, map[string]any{})), "a tool without groups answers for every one")
	diff := Tool{GroupArguments: []string{"old", "new"}, GroupPrefix: "group:"}
	assert.NoError(t, g.scope(diff, map[string]any{"old": "group:team-a-orders", "new_topology": "..."}))
	assert.Equal(t, outcomeScopeViolation, outcomeOf(g.scope(diff, map[string]any{"old": "group:team-b-x"})))
	open, _ := newGuard(nil, time.Now, nil)
	assert.NoError(t, open.scope(tool, map[string]any{"all-groups": true}))
	assert.NoError(t, open.scope(Tool{}, map[string]any{}))
}

func TestNew_refusesAWriteWithoutState(t *testing.T) {
	t.Parallel()
	_, err := New(Config{AllowWrites: true, Tools: []Tool{{Name: "w", Mutating: true, Input: &jsonschema.Schema{Type: "object"}}}})
	assert.ErrorContains(t, err, "State")
}
