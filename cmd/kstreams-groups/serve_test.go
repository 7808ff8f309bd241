//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kstreams-groups/kstreams-groups/internal/buftest"
	"github.com/kstreams-groups/kstreams-groups/internal/format/promtest"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/api"
)

// serveChild is `kstreams-groups serve` in a child process.
type serveChild struct {
	cmd    *exec.Cmd
	stderr *buftest.Buffer
	addr   string
	exited chan struct{}
	err    error
}

// startServe starts serve with args on a free port and waits until it
// listens.
func startServe(t testing.TB, args ...string) *serveChild {
	t.Helper()
	return startServeEnv(t, nil, args...)
}

// startServeEnv is startServe with env added to the child's environment.
func startServeEnv(t testing.TB, env []string, args ...string) *serveChild {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	exe, err := os.Executable()
	require.NoError(t, err)
	// As cliProcess: this test binary as the CLI, in an empty home.
	cmd := exec.Command(exe, append([]string{"serve", "--listen", "127.0.0.1:0", "--addr-file", addrFile}, args...)...)
	home := t.TempDir()
	cmd.Env = []string{runAsCLIEnv + "=1", "HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + os.Getenv("PATH")}
	cmd.Env = append(cmd.Env, env...)
	c := &serveChild{cmd: cmd, stderr: &buftest.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	require.NoError(t, cmd.Start())
	go func() { c.err = cmd.Wait(); close(c.exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.exited
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(addrFile)
		if s := strings.TrimSpace(string(b)); s != "" && strings.HasSuffix(string(b), "\n") {
			c.addr = s
			return c
		}
		select {
		case <-c.exited:
			t.Fatalf("serve exited: %v\n%s", c.err, c.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "serve did not listen\n%s", c.stderr.String())
	}
}

func (c *serveChild) get(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + c.addr + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// waitReady waits for /readyz.
func (c *serveChild) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if code, _ := c.get(t, "/readyz"); code == http.StatusOK {
			return
		}
		require.True(t, time.Now().Before(deadline), "serve did not get ready\n%s", c.stderr.String())
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeMetricsEqualCheck: serve's /metrics holds what check -o
// prometheus prints for the same playground and the same conditions,
// labelled cluster; SIGTERM stops it within a second with exit 0.
func TestServeMetricsEqualCheck(t *testing.T) {
	t.Parallel()
	isolate(t)
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = pg.Close() })
	conditions := []string{"--require-topology", "--partition-metrics", "--lag-warning", "700", "--min-members", "1"}
	s := startServe(t, append([]string{"--bootstrap-server", bootstrap(pg), "--interval", "1s"}, conditions...)...)
	s.waitReady(t)
	code, body := s.get(t, "/metrics")
	require.Equal(t, http.StatusOK, code)
	got := promtest.ClusterFamilies(t, body, "default")

	res := runCLI(t, append([]string{"--bootstrap-server", bootstrap(pg), "check", "--all-groups", "-o", "prometheus"}, conditions...)...)
	require.NotEmpty(t, res.stdout, res.stderr)
	want := promtest.Parse(t, res.stdout)
	assert.Equal(t, promtest.Canonical(want), promtest.Canonical(got))
	for _, own := range []string{"kstreams_serve_cycle_duration_seconds", "kstreams_serve_last_success_timestamp_seconds", "kstreams_serve_stale",
		"kstreams_serve_series", "kstreams_serve_cycle_errors_total", "kstreams_serve_dropped_series_total"} {
		assert.Contains(t, body, own+`{cluster="default"}`)
	}

	start := time.Now()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	t.Logf("stopped %s after SIGTERM", time.Since(start))
	assert.NoError(t, s.err, "exit 0\n%s", s.stderr.String())
	assert.Less(t, time.Since(start), 2*time.Second, "stops within a second (and a margin for the machine)")
	assert.Contains(t, s.stderr.String(), "msg=stopped")
}

// TestServeProfiles: --profile repeated serves each profile's cluster,
// labelled with its name.
func TestServeProfiles(t *testing.T) {
	t.Parallel()
	isolate(t)
	a, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = a.Close() })
	b := startCluster(t, 1, playground.Kafka44)
	b.PutStreamsGroup(streamsGroup("only-in-b", nil))
	config := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, filepath.Dir(config), filepath.Base(config), "profiles:\n  prod:\n    bootstrap-server: "+bootstrap(a)+"\n  staging:\n    bootstrap-server: "+bootstrap(b)+"\n")
	s := startServe(t, "--config", config, "--profile", "prod", "--profile", "staging")
	s.waitReady(t)
	_, body := s.get(t, "/metrics")
	prod, staging := promtest.ClusterFamilies(t, body, "prod"), promtest.ClusterFamilies(t, body, "staging")
	assert.True(t, promtest.Has(prod, "kstreams_group_up", "group", "word-count"))
	assert.False(t, promtest.Has(prod, "kstreams_group_up", "group", "only-in-b"))
	assert.True(t, promtest.Has(staging, "kstreams_group_up", "group", "only-in-b"))
	assert.False(t, promtest.Has(staging, "kstreams_group_up", "group", "word-count"))
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGINT))
	<-s.exited
	assert.NoError(t, s.err)
}

// TestServeUsageErrors: bad options exit 2 with one line, before
// anything listens.
func TestServeUsageErrors(t *testing.T) {
	t.Parallel()
	isolate(t)
	dir := t.TempDir()
	writeFile(t, dir, "web.yml", "tls_server_config:\n  cert_file: /nonexistent.pem\n")
	writeFile(t, dir, "config.yaml", "profiles:\n  a:\n    bootstrap-server: 127.0.0.1:1\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--interval", "10ms"}, "--interval: want a duration of at least 1s"},
		{[]string{"--listen", "nohostport"}, "--listen: want HOST:PORT"},
		{[]string{"--max-series", "-1"}, "--max-series: want a whole number"},
		{[]string{"--log-format", "xml"}, "--log-format: want text or json"},
		{[]string{"--log-level", "loud"}, "--log-level: want debug"},
		{[]string{"--web.config.file", filepath.Join(dir, "web.yml")}, "--web.config.file"},
		{[]string{"--web.config.file", filepath.Join(dir, "missing.yml")}, "--web.config.file " + filepath.Join(dir, "missing.yml") + ": open "},
		{[]string{"--lag-warning", "10", "--lag-critical", "5"}, "--lag-warning 10 is above --lag-critical 5"},
		{[]string{"-o", "json"}, "-o json: serve prints text; -o json is printed by describe, list"},
		{[]string{"--config", filepath.Join(dir, "config.yaml"), "--profile", "a", "--profile", "a"}, `--profile "a" given twice`},
		{[]string{"--config", filepath.Join(dir, "config.yaml"), "--profile", "a", "--profile", "b"}, `profile "b" is not in`},
	} {
		res := runCLI(t, append([]string{"--bootstrap-server", "127.0.0.1:1", "serve"}, tc.args...)...)
		assert.Equal(t, 2, res.code, "%v: %s", tc.args, res.stderr)
		first, _, _ := strings.Cut(res.stderr, "\n")
		assert.Contains(t, first, tc.want, "%v: the error in one line", tc.args)
	}
	res := runCLI(t, "serve")
	assert.Equal(t, 2, res.code)
	assert.Contains(t, res.stderr, "no bootstrap server")
}

// TestServeCycleFailureLogged: a cluster that cannot be reached is logged
// and served stale, never the end of serve.
func TestServeCycleFailureLogged(t *testing.T) {
	t.Parallel()
	isolate(t)
	s := startServe(t, "--bootstrap-server", closedPort(t), "--interval", "1s", "--timeout", "500ms", "--log-format", "json")
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.stderr.String(), `"msg":"cycle failed"`) {
		require.True(t, time.Now().Before(deadline), "no failure logged\n%s", s.stderr.String())
		time.Sleep(20 * time.Millisecond)
	}
	code, body := s.get(t, "/readyz")
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Contains(t, body, "default")
	_, body = s.get(t, "/metrics")
	assert.Contains(t, body, `kstreams_serve_stale{cluster="default"} 1`)
	assert.NotContains(t, body, "kstreams_group_up")
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	<-s.exited
	var ee *exec.ExitError
	assert.False(t, errors.As(s.err, &ee), "exit 0: %v", s.err)
}

// TestServeNoSecret: the client properties' password reaches no log line
// and no answer, while the cycles fail on the SASL handshake.
func TestServeNoSecret(t *testing.T) {
	t.Parallel()
	isolate(t)
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = pg.Close() })
	const secret = "K7QW9ZP4XM2V"
	dir := t.TempDir()
	writeFile(t, dir, "client.properties", "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" password=\""+secret+"\";\n")
	s := startServe(t, "--bootstrap-server", bootstrap(pg), "--command-config", filepath.Join(dir, "client.properties"),
		"--interval", "1s", "--timeout", "1s", "--log-level", "debug")
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.stderr.String(), `msg="cycle failed"`) {
		require.True(t, time.Now().Before(deadline), "no failure logged\n%s", s.stderr.String())
		time.Sleep(20 * time.Millisecond)
	}
	var answers strings.Builder
	for _, p := range []string{"/metrics", "/readyz", "/healthz", "/"} {
		_, body := s.get(t, p)
		answers.WriteString(body)
	}
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	<-s.exited
	for what, text := range map[string]string{"the log": s.stderr.String(), "the answers": answers.String()} {
		assert.NotContains(t, text, secret, what)
		assert.NotContains(t, text, secret[:4], what)
	}
	assert.Contains(t, answers.String(), `kstreams_serve_stale{cluster="default"} 1`)
}

// TestServeConsole: the command mounts the web console at / and its
// documents under /api/v1, answered from the collectors' snapshots; the
// page asks again once per --interval.
func TestServeConsole(t *testing.T) {
	t.Parallel()
	isolate(t)
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = pg.Close() })
	s := startServe(t, "--bootstrap-server", bootstrap(pg), "--interval", "7s")
	s.waitReady(t)
	code, page := s.get(t, "/")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, page, `src="/assets/app.js"`, "the console's page, not the placeholder")
	code, body := s.get(t, "/api/v1/groups")
	require.Equal(t, http.StatusOK, code, body)
	var doc api.GroupsDoc
	require.NoError(t, json.Unmarshal([]byte(body), &doc))
	assert.Equal(t, int64(7000), doc.RefreshMS, "the page refreshes once per --interval")
	var groups []string
	for _, g := range doc.Groups {
		assert.Equal(t, "default", g.Cluster)
		groups = append(groups, g.Group)
	}
	assert.Contains(t, groups, "word-count")
	code, _ = s.get(t, "/api/v1/clusters/nope")
	assert.Equal(t, http.StatusNotFound, code)
}

// TestServeWebConfigBounded (W6): --web.config.file is read with the
// --config file's 1 MiB limit before the exporter toolkit reads it
// (which has none): /dev/zero and a file past the limit are usage errors
// (exit 2) at once, naming the file and the limit.
func TestServeWebConfigBounded(t *testing.T) {
	t.Parallel()
	isolate(t)
	dir := t.TempDir()
	// Past the limit, the file is not read further: what follows it is
	// never parsed (had it been, the toolkit would refuse it with
	// another message).
	large := "basic_auth_users:\n  prometheus: $2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi\n" + strings.Repeat("x", 1<<20) + "\n"
	writeFile(t, dir, "large.yml", large)
	for _, file := range []string{"/dev/zero", filepath.Join(dir, "large.yml")} {
		start := time.Now()
		res := runCLI(t, "--bootstrap-server", "127.0.0.1:1", "serve", "--listen", "127.0.0.1:0", "--web.config.file", file)
		took := time.Since(start)
		assert.Equal(t, 2, res.code, "%s: %s", file, res.stderr)
		first, _, _ := strings.Cut(res.stderr, "\n")
		assert.Contains(t, first, "--web.config.file "+file+" is larger than 1 MiB, the limit for a web configuration file", file)
		// Generous: the whole run, not only the read, on a loaded machine.
		assert.Less(t, took, 10*time.Second, file)
	}
}

// k8sExample is the container of the shipped Kubernetes Deployment: its
// arguments and its probes' httpGet.
type k8sExample struct {
	args   []string
	probes map[string]k8sHTTPGet
}

type k8sHTTPGet struct {
	Path        string `yaml:"path"`
	Port        string `yaml:"port"`
	Scheme      string `yaml:"scheme"`
	HTTPHeaders []struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	} `yaml:"httpHeaders"`
}

type k8sProbe struct {
	HTTPGet k8sHTTPGet `yaml:"httpGet"`
}

func readK8sExample(t *testing.T) k8sExample {
	t.Helper()
	b, err := os.ReadFile("../../deploy/kubernetes/kstreams-groups-serve.yaml")
	require.NoError(t, err)
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc struct {
			Kind string `yaml:"kind"`
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct {
							Args           []string `yaml:"args"`
							ReadinessProbe k8sProbe `yaml:"readinessProbe"`
							LivenessProbe  k8sProbe `yaml:"livenessProbe"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		require.NoError(t, dec.Decode(&doc), "the example has a Deployment")
		if doc.Kind != "Deployment" {
			continue
		}
		require.Len(t, doc.Spec.Template.Spec.Containers, 1)
		c := doc.Spec.Template.Spec.Containers[0]
		return k8sExample{args: c.Args, probes: map[string]k8sHTTPGet{"readiness": c.ReadinessProbe.HTTPGet, "liveness": c.LivenessProbe.HTTPGet}}
	}
}

// TestServeKubernetesProbesWithBasicAuth (W3): the shipped Kubernetes
// example, run as shipped (its arguments, its probes) with the basic
// authentication its comment advises: the probes, which send no
// credentials, are answered 200, while /metrics, the page and /api/v1
// ask for them.
func TestServeKubernetesProbesWithBasicAuth(t *testing.T) {
	t.Parallel()
	isolate(t)
	pg, err := playground.StartStateWith(testPlayground, playground.DefaultState())
	require.NoError(t, err)
	t.Cleanup(func() { _ = pg.Close() })
	ex := readK8sExample(t)
	dir := t.TempDir()
	// The exporter toolkit's own test hash: bcrypt of "fakepassword".
	webConfig := writeFile(t, dir, "web.yml", "basic_auth_users:\n  prometheus: $2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi\n")
	config := writeFile(t, dir, "config.yaml", "bootstrap-server: "+bootstrap(pg)+"\n")
	var args []string
	for _, a := range ex.args {
		switch {
		case a == "serve":
		case strings.HasPrefix(a, "--config="):
			args = append(args, "--config="+config)
		case strings.HasPrefix(a, "--listen="):
			// startServe's 127.0.0.1:0 instead of every address.
		case strings.HasPrefix(a, "--interval="):
			args = append(args, "--interval=1s")
		default:
			args = append(args, a)
		}
	}
	require.Contains(t, ex.args, "serve")
	s := startServe(t, append(args, "--web.config.file="+webConfig)...)

	ask := func(path, user, pass string, headers map[string]string) int {
		req, err := http.NewRequest(http.MethodGet, "http://"+s.addr+path, nil)
		require.NoError(t, err)
		if user != "" {
			req.SetBasicAuth(user, pass)
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	for name, p := range ex.probes {
		require.NotEmpty(t, p.Path, name)
		assert.Contains(t, []string{"", "HTTP"}, p.Scheme, "%s: the example serves plain HTTP", name)
		headers := map[string]string{}
		for _, h := range p.HTTPHeaders {
			headers[h.Name] = h.Value
		}
		deadline := time.Now().Add(30 * time.Second)
		code := ask(p.Path, "", "", headers)
		for code == http.StatusServiceUnavailable && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			code = ask(p.Path, "", "", headers)
		}
		assert.Equal(t, http.StatusOK, code, "%s probe %s without credentials", name, p.Path)
	}
	// Only the probes' exact paths are open.
	for _, path := range []string{"/metrics", "/", "/api/v1/groups", "/api/v1/clusters", "/healthz/", "/readyz/../metrics", "/assets/app.js"} {
		assert.Equal(t, http.StatusUnauthorized, ask(path, "", "", nil), "%s without credentials", path)
		assert.Equal(t, http.StatusUnauthorized, ask(path, "prometheus", "wrong", nil), "%s with a wrong password", path)
	}
	assert.Equal(t, http.StatusOK, ask("/readyz?next=/metrics", "", "", nil), "a query is no part of the path")
	for _, path := range []string{"/metrics", "/", "/api/v1/groups", "/healthz", "/readyz"} {
		assert.Equal(t, http.StatusOK, ask(path, "prometheus", "fakepassword", nil), "%s with the credentials", path)
	}
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	<-s.exited
	assert.NoError(t, s.err)
}
