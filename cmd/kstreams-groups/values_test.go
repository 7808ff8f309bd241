package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/admin"
)

// Bad values are usage errors (exit 2) that name the value and where it
// came from: the flag, the environment variable, or the config file and
// line. Nothing connects.

func TestBootstrapValues_usageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		flag   string            // --bootstrap-server, when set
		env    map[string]string // environment, when set
		config string            // config file, when set
		want   string            // the first stderr line; CONFIG stands for the file's path
	}{
		{name: "port not a number", flag: "localhost:abc",
			want: `--bootstrap-server: invalid server "localhost:abc": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
		{name: "no port", flag: "localhost",
			want: `--bootstrap-server: invalid server "localhost": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
		{name: "port out of range", flag: "localhost:99999",
			want: `--bootstrap-server: invalid server "localhost:99999": port 99999 is not in 1-65535`},
		{name: "port past int32", flag: "localhost:99999999999999",
			want: `--bootstrap-server: invalid server "localhost:99999999999999": port 99999999999999 is not in 1-65535`},
		{name: "port zero", flag: "localhost:0",
			want: `--bootstrap-server: invalid server "localhost:0": port 0 is not in 1-65535`},
		{name: "second of two", flag: "a:1, b:x",
			want: `--bootstrap-server: invalid server "b:x": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
		{name: "space in host", flag: "my host:9092",
			want: `--bootstrap-server: invalid server "my host:9092": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
		{name: "control character is quoted", flag: "evil\x1b[2J:9092",
			want: `--bootstrap-server: invalid server "evil\x1b[2J:9092": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
		{name: "colon host that is no IP address", flag: "::1",
			want: `--bootstrap-server: invalid server "::1": host ":" is not an IPv6 address (write IPv6 as [::1]:9092)`},
		{name: "environment", env: map[string]string{"KSTREAMS_GROUPS_BOOTSTRAP_SERVER": "localhost"},
			want: `KSTREAMS_GROUPS_BOOTSTRAP_SERVER: invalid server "localhost": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
		{name: "config file", config: "timeout: 1000\nbootstrap-server: localhost:70000\n",
			want: `config file CONFIG: line 2: bootstrap-server: invalid server "localhost:70000": port 70000 is not in 1-65535`},
		{name: "config file profile", config: "bootstrap-server: ok:1\nprofile: p\nprofiles:\n  p:\n    bootstrap-server: nope\n",
			want: `config file CONFIG: line 5: profile "p": bootstrap-server: invalid server "nope": want host:port, optionally with a listener prefix (PLAINTEXT://host:port)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tt.env {
				setenv(t, k, v)
			}
			var args []string
			want := tt.want
			if tt.config != "" {
				path := writeFile(t, t.TempDir(), "config.yaml", tt.config)
				args = append(args, "--config", path)
				want = strings.ReplaceAll(want, "CONFIG", path)
			}
			if tt.flag != "" {
				args = append(args, "--bootstrap-server", tt.flag)
			}
			for _, form := range [][]string{{"--describe", "--group", "g"}, {"list"}} {
				r := runWith(t, noClient(t), append(append([]string{}, args...), form...)...)
				assert.Equal(t, exitUsage, r.code, "%v: %s", form, r.stderr)
				first, _, _ := strings.Cut(r.stderr, "\n")
				assert.Equal(t, want, first, "%v", form)
				assert.Empty(t, r.stdout)
				assertNoControlBytes(t, r)
			}
		})
	}
}

// The checks of the Java tool come first: a bad bootstrap server is found
// where Kafka's client finds it, when the admin client is built.
func TestBootstrapValues_afterOptionChecks(t *testing.T) {
	t.Parallel()
	isolate(t)
	r := runWith(t, noClient(t), "--bootstrap-server", "localhost", "--describe")
	assert.Equal(t, exitUsage, r.code)
	assert.True(t, strings.HasPrefix(r.stderr, "Option [describe] takes one of these options: [all-groups], [group]\n"), r.stderr)
}

// Kafka's clients accept a listener prefix (Utils.getHost's pattern), IPv6
// in brackets or bare, and trim around commas; so do we.
func TestParseBootstrap_accepts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"PLAINTEXT://127.0.0.1:9092":       {"127.0.0.1:9092"},
		"SASL_SSL://broker-1.example:9093": {"broker-1.example:9093"},
		"://h:1":                           {"h:1"},
		"[::1]:9092":                       {"[::1]:9092"},
		"fe80::1:9092":                     {"[fe80::1]:9092"},
		"a:1 , b:2,,c:03":                  {"a:1", "b:2", "c:3"},
		"my_host.local:65535":              {"my_host.local:65535"},
	} {
		var servers []string
		for _, s := range strings.Split(in, ",") {
			if s = strings.TrimSpace(s); s != "" {
				servers = append(servers, s)
			}
		}
		got, err := parseBootstrap(servers, "--bootstrap-server")
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}

// A listener prefix reaches the broker: the address is dialled without it.
func TestBootstrapValues_listenerPrefixConnects(t *testing.T) {
	t.Parallel()
	isolate(t)
	c := startCluster(t, 1, "")
	r := runCLI(t, "--bootstrap-server", "PLAINTEXT://"+c.Addrs()[0], "--timeout", "5000", "--list")
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "The cluster has no streams group.\n", r.stderr, "the listing was answered")
}

func TestTimeoutValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		env    map[string]string
		config string
		want   string // first stderr line; "" means accepted
	}{
		{name: "largest", args: []string{"--timeout", "9223372036854"}},
		{name: "one past the largest", args: []string{"--timeout", "9223372036855"},
			want: "invalid timeout 9223372036855: want at most 9223372036854 ms (the largest duration)"},
		{name: "wraps to zero", args: []string{"--timeout", "18446744073710"},
			want: "invalid timeout 18446744073710: want at most 9223372036854 ms (the largest duration)"},
		{name: "largest int64", args: []string{"--timeout", "9223372036854775807"},
			want: "invalid timeout 9223372036854775807: want at most 9223372036854 ms (the largest duration)"},
		{name: "environment", env: map[string]string{"KSTREAMS_GROUPS_TIMEOUT": "9223372036855"},
			want: "KSTREAMS_GROUPS_TIMEOUT: invalid timeout 9223372036855: want at most 9223372036854 ms (the largest duration)"},
		{name: "config file", config: "bootstrap-server: x:1\ntimeout: 9223372036855\n",
			want: "config file CONFIG: line 2: invalid timeout 9223372036855: want at most 9223372036854 ms (the largest duration)"},
		{name: "config file type error", config: "timeout: abc\n",
			want: "config file CONFIG: line 1: invalid timeout abc: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "profile type error", config: "profiles:\n  p:\n    debug: maybe\n", args: []string{"--profile", "p"},
			want: `config file CONFIG: line 3: profile "p": invalid debug maybe: want true or false`},
		{name: "flag beats a bad file value", config: "timeout: abc\n", args: []string{"--timeout", "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tt.env {
				setenv(t, k, v)
			}
			args := append([]string{"--bootstrap-server", "x:1"}, tt.args...)
			want := tt.want
			if tt.config != "" {
				path := writeFile(t, t.TempDir(), "config.yaml", tt.config)
				args = append(args, "--config", path)
				want = strings.ReplaceAll(want, "CONFIG", path)
			}
			var ran bool
			d := deps{runF: func(string, any) error { ran = true; return nil }, newClient: noClient(t).newClient}
			r := runWith(t, d, append(args, "--list")...)
			if want == "" {
				assert.Equal(t, exitOK, r.code, r.stderr)
				assert.True(t, ran)
				return
			}
			assert.Equal(t, exitUsage, r.code, r.stderr)
			first, _, _ := strings.Cut(r.stderr, "\n")
			assert.Equal(t, want, first)
			assert.False(t, ran)
		})
	}
}

func TestConfigFile_duplicates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, want string
	}{
		{"top-level key", "timeout: 1000\nbootstrap-server: a:1\ntimeout: 2000\n",
			`line 3: duplicate key "timeout" (first at line 1)`},
		{"profile", "profiles:\n  p:\n    timeout: 1\n  q: {}\n  p:\n    timeout: 2\n",
			`line 5: duplicate profile "p" (first at line 2)`},
		{"key in a profile", "profiles:\n  p:\n    timeout: 1\n    debug: true\n    timeout: 2\n",
			`line 5: profile "p": duplicate key "timeout" (first at line 3)`},
		{"client property", "client-properties:\n  client.id: a\n  security.protocol: SSL\n  client.id: b\n",
			`line 4: client-properties: duplicate property "client.id" (first at line 2)`},
		{"client property in a profile", "profiles:\n  p:\n    client-properties:\n      client.id: a\n      client.id: b\n",
			`profile "p": line 5: client-properties: duplicate property "client.id" (first at line 4)`},
		// An empty key is no duplicate of the profile's own line.
		{"empty key in a profile", "profiles:\n  p:\n    \"\": 1\n",
			`line 3: profile "p": unknown key "" (known: bootstrap-server, timeout, detailed-exit-codes, output, debug, command-config, client-properties)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			path := writeFile(t, t.TempDir(), "config.yaml", tt.file)
			r := runWith(t, noClient(t), "--config", path, "--bootstrap-server", "x:1", "--list")
			assert.Equal(t, exitUsage, r.code, r.stderr)
			first, _, _ := strings.Cut(r.stderr, "\n")
			assert.Equal(t, "config file "+path+": "+tt.want, first)
		})
	}
}

func TestClientID_tooLong(t *testing.T) {
	t.Parallel()
	isolate(t)
	dir := t.TempDir()
	props := writeFile(t, dir, "client.properties", "security.protocol=PLAINTEXT\nclient.id="+strings.Repeat("x", 32768)+"\n")
	r := runWith(t, noClient(t), "--bootstrap-server", "x:1", "--command-config", props, "--list")
	assert.Equal(t, exitUsage, r.code, r.stderr)
	first, _, _ := strings.Cut(r.stderr, "\n")
	assert.Equal(t, props+":line 2: client.id: 32768 bytes, longer than the 32767 a request header can carry", first)

	cfg := writeFile(t, dir, "config.yaml", "client-properties:\n  client.id: "+strings.Repeat("y", 40000)+"\n")
	r = runWith(t, noClient(t), "--config", cfg, "--bootstrap-server", "x:1", "--list")
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "client.id: 40000 bytes, longer than the 32767 a request header can carry")

	ok := writeFile(t, dir, "ok.properties", "client.id="+strings.Repeat("x", 32767)+"\n")
	var built bool
	d := deps{newClient: func(admin.Config) (client, error) { built = true; return nil, errors.New("stop here") }}
	r = runWith(t, d, "--bootstrap-server", "x:1", "--command-config", ok, "--list")
	assert.True(t, built, "the longest client.id is accepted: %s", r.stderr)
}

func TestPlaygroundPort_usageErrors(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]string{
		"--port 70000": "invalid --port 70000: want 1-65533 for 3 nodes (node i listens on port+i), or 0 for free ports",
		"--port 65534": "invalid --port 65534: want 1-65533 for 3 nodes (node i listens on port+i), or 0 for free ports",
		"--port -1":    "invalid --port -1: want 1-65533 for 3 nodes (node i listens on port+i), or 0 for free ports",
	} {
		isolate(t)
		r := runCLI(t, append([]string{"playground"}, strings.Fields(args)...)...)
		assert.Equal(t, exitUsage, r.code, args)
		first, _, _ := strings.Cut(r.stderr, "\n")
		assert.Equal(t, want, first, args)
		assert.Empty(t, r.stdout)
	}
}

// assertNoControlBytes fails when a run wrote a raw control byte (other than
// a line feed) to stdout or stderr.
func assertNoControlBytes(t *testing.T, r result) {
	t.Helper()
	for name, s := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
		assert.Empty(t, controlChars(s), "%s has raw control bytes: %q", name, s)
	}
}
