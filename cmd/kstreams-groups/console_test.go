package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
)

type oneCluster struct{ c *snapshot.Cluster }

func (o oneCluster) Clusters() []*snapshot.Cluster { return []*snapshot.Cluster{o.c} }

// The console's overview, list and check documents are what the command
// prints with -o json for the same cluster: a snapshot read as serve's
// collector reads it (check with the description and the time lag, list
// --state), served, against the CLI's output. Both sides read the time lag
// at testNow, which the playground's record ages count back from.
func TestConsole_documentsEqualOutputJSON(t *testing.T) {
	t.Parallel()
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	defer pg.Close()
	cl, err := admin.New(admin.Config{Bootstrap: pg.Addrs()})
	require.NoError(t, err)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ck, err := check.Run(ctx, cl, check.Options{AllGroups: true, RequireTopology: true, TimeLag: true, Now: func() time.Time { return testNow }})
	require.NoError(t, err)
	ls, err := list.Run(ctx, cl, list.Options{WithState: true})
	require.NoError(t, err)
	srv := httptest.NewServer(web.Handler(oneCluster{&snapshot.Cluster{Name: "default", Taken: time.Now(), LastSuccess: time.Now(), Check: ck, List: ls}}))
	defer srv.Close()

	bs := bootstrap(pg)
	for doc, args := range map[string][]string{
		"check":    {"--bootstrap-server", bs, "check", "--all-groups", "--require-topology", "--time-lag", "-o", "json"},
		"overview": {"--bootstrap-server", bs, "overview", "--all-groups", "--time-lag", "--last-rebalance=false", "-o", "json"},
		"list":     {"--bootstrap-server", bs, "list", "--state", "-o", "json"},
	} {
		r := runCLI(t, args...)
		require.NotEmpty(t, r.stdout, "%v: %s", args, r.stderr)
		res, err := srv.Client().Get(srv.URL + "/api/v1/clusters/default/" + doc)
		require.NoError(t, err)
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, res.StatusCode, doc)
		assert.Equal(t, r.stdout, string(body), doc)
	}
}
