package doctor

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/kafka"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
)

// static is member with an instance id and a member epoch.
func static(m kafka.Member, instance string, epoch int32) kafka.Member {
	m.InstanceID, m.MemberEpoch = &instance, epoch
	return m
}

func TestRun_staticMembers(t *testing.T) {
	tests := []struct {
		name     string
		group    *kafka.StreamsGroup
		settings kafka.GroupConfigs
		want     []string
	}{
		{name: "no static member: no finding", group: stateful(member("a", "p1", "h1", []int32{0, 1}, nil))},
		{name: "static members on their own processes",
			group: stateful(static(member("a", "p1", "h1", []int32{0}, nil), "app-1-1", 5), static(member("b", "p1", "h1", []int32{1}, nil), "app-1-2", 5),
				static(member("c", "p2", "h2", nil, nil), "app-2-1", 5), member("d", "p3", "h3", nil, nil)),
			want: []string{"ok: 3 of 4 members are static (group.instance.id), each instance id on one process, none left"}},
		{name: "one configured id on two processes",
			group: stateful(static(member("a", "p1", "h1", []int32{0}, nil), "app-1", 5), static(member("b", "p2", "h2", []int32{1}, nil), "app-2", 5),
				static(member("c", "p3", "h3", nil, nil), "app-3", 5)),
			want: []string{"problem: the same group.instance.id is used by several processes: app on processes p1, p2, p3"}},
		{name: "the same instance id twice",
			group: stateful(static(member("a", "p1", "h1", []int32{0}, nil), "fixed", 5), static(member("b", "p1", "h1", []int32{1}, nil), "fixed", 5)),
			want:  []string{"problem: the same group.instance.id is used by several processes: fixed on 2 members"}},
		{name: "a restart under way is no duplicate", settings: settings(overview.ConfigSessionTimeout, "45000"),
			group: stateful(static(member("a", "new-process", "h1", []int32{0}, nil), "app-1", 6), static(member("b", "old-process", "h1", []int32{1}, nil), "app-2", LeftStaticEpoch)),
			want: []string{"warning: 1 static member left the group (member epoch -2) and still holds its tasks until its session expires (streams.session.timeout.ms = 45000 ms): " +
				"nobody processes them meanwhile, their lag grows without a rebalance: instance app-2 (member b, process old-process, 1 task)"}},
		{name: "a static member left and holds its tasks", settings: settings(overview.ConfigSessionTimeout, "45000"),
			group: stateful(static(member("a", "p1", "h1", []int32{0}, []int32{1}), "app-a-1", LeftStaticEpoch), static(member("b", "p2", "h2", []int32{1}, nil), "app-b-1", 7)),
			want: []string{"warning: 1 static member left the group (member epoch -2) and still holds its tasks until its session expires (streams.session.timeout.ms = 45000 ms): " +
				"nobody processes them meanwhile, their lag grows without a rebalance: instance app-a-1 (member a, process p1, 2 tasks)"}},
		{name: "left without tasks: nothing held",
			group: stateful(static(member("a", "p1", "h1", nil, nil), "app-a-1", LeftStaticEpoch), static(member("b", "p2", "h2", []int32{0, 1}, nil), "app-b-1", 7)),
			want:  []string{"ok: 2 of 2 members are static (group.instance.id), each instance id on one process, none left"}},
		{name: "a dynamic member's epoch is no signal",
			group: stateful(func() kafka.Member {
				m := member("a", "p1", "h1", []int32{0}, nil)
				m.MemberEpoch = LeftStaticEpoch
				return m
			}(),
				static(member("b", "p2", "h2", []int32{1}, nil), "app-b-1", 7)),
			want: []string{"ok: 1 of 2 members are static (group.instance.id), each instance id on one process, none left"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &settingsFake{fake: &fake{groups: map[string]*kafka.StreamsGroup{"app": tc.group}, plugin: str("x")},
				settings: map[string]kafka.GroupConfigs{"app": tc.settings}}
			res, err := Run(context.Background(), f, Options{Groups: []string{"app"}})
			require.NoError(t, err)
			g := res.Groups[0]
			require.NoError(t, g.Err)
			assert.Equal(t, tc.want, findings(g, CheckStatic))
			for _, fd := range g.Findings {
				if fd.Check == CheckStatic && fd.Severity.Wrong() {
					assert.NotEmpty(t, fd.Hint, fd.Message)
				}
			}
		})
	}
}

func TestConfiguredInstanceID(t *testing.T) {
	for in, want := range map[string]string{"app-1": "app", "app-2-13": "app-2", "app": "app", "-1": "-1", "app-x": "app-x", "app-": "app-", "a-99999999999": "a-99999999999"} {
		assert.Equal(t, want, configuredInstanceID(in), in)
	}
}
