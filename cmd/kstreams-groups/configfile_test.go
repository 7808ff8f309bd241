package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/clientconfig/clientconfigtest"
)

// loadFor parses args like run() does and returns the resolved Config,
// without running any verb.
func loadFor(t *testing.T, args ...string) (Config, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	a := &app{io: IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, deps: deps{env: testEnv(t)}}
	root := a.newRootCmd()
	root.RunE = func(*cobra.Command, []string) error { return nil }
	root.SetArgs(append([]string{}, args...)) // never nil: cobra reads os.Args then
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.Execute()
	return a.cfg, err
}

// writeFile writes content to name in dir and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

const profilesYAML = `# top-level keys apply to every profile
bootstrap-server: top:9092
timeout: 1000
profile: staging
profiles:
  staging:
    bootstrap-server: staging-1:9093,staging-2:9093
    command-config: staging.properties
  prod:
    bootstrap-server: prod:9093
    timeout: 60000
    detailed-exit-codes: true
    debug: true
    client-properties:
      security.protocol: SASL_SSL
      sasl.mechanism: SCRAM-SHA-512
  empty: {}
`

func TestLoadConfig_precedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		env           map[string]string
		args          []string
		wantBootstrap []string
		wantTimeout   time.Duration
		wantProfile   string
		wantDetailed  bool
		wantDebug     bool
	}{
		{name: "file's default profile over top-level keys", wantBootstrap: []string{"staging-1:9093", "staging-2:9093"}, wantTimeout: time.Second, wantProfile: "staging"},
		{name: "--profile picks another", args: []string{"--profile", "prod"}, wantBootstrap: []string{"prod:9093"}, wantTimeout: time.Minute, wantProfile: "prod", wantDetailed: true, wantDebug: true},
		{name: "env picks the profile", env: map[string]string{"KSTREAMS_GROUPS_PROFILE": "prod"}, wantBootstrap: []string{"prod:9093"}, wantTimeout: time.Minute, wantProfile: "prod", wantDetailed: true, wantDebug: true},
		{name: "flag beats env for the profile", env: map[string]string{"KSTREAMS_GROUPS_PROFILE": "prod"}, args: []string{"--profile", "empty"}, wantBootstrap: []string{"top:9092"}, wantTimeout: time.Second, wantProfile: "empty"},
		{name: "env beats the profile", env: map[string]string{"KSTREAMS_GROUPS_BOOTSTRAP_SERVER": "env:1", "KSTREAMS_GROUPS_TIMEOUT": "2000", "KSTREAMS_GROUPS_DETAILED_EXIT_CODES": "false"},
			args: []string{"--profile", "prod"}, wantBootstrap: []string{"env:1"}, wantTimeout: 2 * time.Second, wantProfile: "prod", wantDebug: true},
		{name: "flags beat everything", env: map[string]string{"KSTREAMS_GROUPS_BOOTSTRAP_SERVER": "env:1", "KSTREAMS_GROUPS_DEBUG": "true"},
			args: []string{"--profile", "prod", "--bootstrap-server", "flag:1", "--timeout", "3000", "--debug=false"}, wantBootstrap: []string{"flag:1"}, wantTimeout: 3 * time.Second, wantProfile: "prod", wantDetailed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			cfgPath := writeFile(t, t.TempDir(), "config.yaml", profilesYAML)
			setenv(t, "KSTREAMS_GROUPS_CONFIG", cfgPath)
			for k, v := range tt.env {
				setenv(t, k, v)
			}
			cfg, err := loadFor(t, tt.args...)
			require.NoError(t, err)
			assert.Equal(t, tt.wantBootstrap, cfg.Bootstrap)
			assert.Equal(t, tt.wantTimeout, cfg.Timeout)
			assert.Equal(t, tt.wantProfile, cfg.Profile)
			assert.Equal(t, tt.wantDetailed, cfg.DetailedExitCodes)
			assert.Equal(t, tt.wantDebug, cfg.Debug)
			assert.Equal(t, cfgPath, cfg.File)
		})
	}
}

func TestLoadConfig_defaultsWithoutFile(t *testing.T) {
	t.Parallel()
	isolate(t)
	cfg, err := loadFor(t)
	require.NoError(t, err)
	assert.Empty(t, cfg.Bootstrap)
	assert.Equal(t, 30*time.Second, cfg.Timeout)
	assert.Equal(t, "", cfg.Profile)
	assert.Equal(t, ClientSource{}, cfg.Client)
	assert.False(t, cfg.Debug)
}

func TestLoadConfig_clientSource(t *testing.T) {
	t.Parallel()
	isolate(t)
	dir := t.TempDir()
	cfgPath := writeFile(t, dir, "config.yaml", profilesYAML)
	setenv(t, "KSTREAMS_GROUPS_CONFIG", cfgPath)

	cfg, err := loadFor(t)
	require.NoError(t, err)
	assert.Equal(t, ClientSource{Path: filepath.Join(dir, "staging.properties"), Origin: `profile "staging" in ` + cfgPath, BaseDir: dir}, cfg.Client,
		"a profile's command-config is relative to the config file")

	cfg, err = loadFor(t, "--profile", "prod")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512"}, cfg.Client.Inline)

	cfg, err = loadFor(t, "--profile", "empty")
	require.NoError(t, err)
	assert.Equal(t, ClientSource{}, cfg.Client)

	setenv(t, "KSTREAMS_GROUPS_COMMAND_CONFIG", "/env/client.properties")
	cfg, err = loadFor(t, "--profile", "prod")
	require.NoError(t, err)
	assert.Equal(t, ClientSource{Path: "/env/client.properties", Origin: "KSTREAMS_GROUPS_COMMAND_CONFIG"}, cfg.Client, "env replaces the profile's properties whole")

	cfg, err = loadFor(t, "--profile", "prod", "--command-config", "flag.properties")
	require.NoError(t, err)
	assert.Equal(t, ClientSource{Path: "flag.properties", Origin: "--command-config"}, cfg.Client, "a flag path is relative to the working directory, as in Java")
}

func TestLoadConfig_errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		file    string // config file content; "" for none
		args    []string
		wantErr string
	}{
		{name: "unknown top-level key", file: "bootstrap-server: x:1\nbootstrap_server: y:1\n", wantErr: `line 2: unknown key "bootstrap_server"`},
		{name: "unknown profile key", file: "profiles:\n  a:\n    security.protocol: SSL\n", wantErr: `line 3: profile "a": unknown key "security.protocol"`},
		{name: "profile not a mapping", file: "profiles:\n  a: x:1\n", wantErr: `line 2: profile "a": want a mapping of keys to values`},
		{name: "client-properties not a mapping", file: "client-properties: SSL\n", wantErr: "line 1: client-properties: want a mapping of Kafka client property names to values"},
		{name: "nested client property", file: "client-properties:\n  ssl:\n    truststore: x\n", wantErr: "line 3: client-properties: ssl: want a single value"},
		{name: "unknown profile", file: "profiles:\n  b: {}\n  a: {}\n", args: []string{"--profile", "prod"}, wantErr: `profile "prod" is not in `},
		{name: "unknown profile lists the known ones", file: "profiles:\n  b: {}\n  a: {}\n", args: []string{"--profile", "prod"}, wantErr: "(profiles: a, b)"},
		{name: "profile without config file", args: []string{"--profile", "prod"}, wantErr: `profile "prod": no config file (looked for `},
		{name: "bad timeout in profile", file: "profiles:\n  a:\n    timeout: soon\n", args: []string{"--profile", "a"}, wantErr: "invalid timeout soon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			if tt.file != "" {
				setenv(t, "KSTREAMS_GROUPS_CONFIG", writeFile(t, t.TempDir(), "config.yaml", tt.file))
			}
			_, err := loadFor(t, tt.args...)
			require.Error(t, err)
			var ue *usageError
			assert.ErrorAs(t, err, &ue)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

// secretPass is the SASL password of the CLI tests; no output may hold it.
const secretPass = "cli-s3cret-pw"

// securedCluster is a kfake broker with TLS and SCRAM-SHA-512 user alice,
// and the properties that reach it; reject makes every SASL attempt fail as
// a real broker does for a wrong password.
func securedCluster(t *testing.T, reject bool) (addr string, props string, ca *clientconfigtest.CA) {
	t.Helper()
	ca = clientconfigtest.NewCA(t, "cli-ca")
	o := clientconfigtest.ClusterOptions{TLS: &ca.Server, Users: map[string]map[string]string{"SCRAM-SHA-512": {"alice": secretPass}}}
	if reject {
		o.RejectSASL = "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"
	}
	_, addr = clientconfigtest.StartCluster(t, o)
	trust := ca.WriteTrustStore(t, t.TempDir(), clientconfigtest.PKCS12)
	props = "# production cluster\nsecurity.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n" +
		"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n    username=\"alice\" password=\"" + secretPass + "\";\n" +
		"ssl.truststore.type=PKCS12\nssl.truststore.location=" + trust + "\nssl.truststore.password=" + clientconfigtest.StorePassword + "\n"
	return addr, props, ca
}

func assertNoSecrets(t *testing.T, r result) {
	t.Helper()
	for _, s := range []string{secretPass, clientconfigtest.StorePassword} {
		assert.NotContains(t, r.stdout, s)
		assert.NotContains(t, r.stderr, s)
	}
}

func TestCommandConfig(t *testing.T) {
	t.Parallel()
	isolate(t)
	addr, props, _ := securedCluster(t, false)
	badAddr, badProps, _ := securedCluster(t, true)
	dir := t.TempDir()
	good := writeFile(t, dir, "client.properties", props)
	wrong := writeFile(t, dir, "wrong.properties", strings.Replace(badProps, secretPass, secretPass+"-typo", 1))
	plaintext := writeFile(t, dir, "plaintext.properties", "client.id=ops\n")
	other := clientconfigtest.NewCA(t, "other-ca")
	untrusted := writeFile(t, dir, "untrusted.properties", "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location="+other.WriteTrustStore(t, dir, clientconfigtest.PEM)+"\n")
	unsupported := writeFile(t, dir, "unsupported.properties", "security.protocol=SASL_SSL\n\nsasl.mechanism=GSSAPI\n")
	malformed := writeFile(t, dir, "malformed.properties", "client.id=x\nssl.key.password=\\u12G4\n")

	describe := func(bootstrap, file string, extra ...string) []string {
		return append([]string{"--bootstrap-server", bootstrap, "--describe", "--topology", "--group", "g", "--command-config", file, "--timeout", "20000"}, extra...)
	}
	tests := []struct {
		name         string
		args         []string
		wantStderr   []string
		wantCode     int
		wantDetailed int
	}{
		// kfake has no StreamsGroupDescribe: a working connection ends at
		// the broker-too-old check, after ApiVersions over TLS and SASL.
		{name: "SASL_SSL SCRAM-SHA-512 connects", args: describe(addr, good),
			wantStderr: []string{"StreamsGroupDescribe"}, wantCode: exitFailure, wantDetailed: exitTooOld},
		{name: "wrong password", args: describe(badAddr, wrong),
			wantStderr: []string{"authentication failed: SASL_AUTHENTICATION_FAILED: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"},
			wantCode:   exitFailure, wantDetailed: exitNotAuthorized},
		{name: "untrusted certificate", args: describe(addr, untrusted),
			wantStderr: []string{"TLS connection failed: tls: failed to verify certificate: x509: certificate signed by unknown authority (check ssl.truststore.* in --command-config)"},
			wantCode:   exitFailure, wantDetailed: exitUnavailable},
		{name: "plaintext against the TLS listener", args: describe(addr, plaintext),
			wantStderr: []string{"TLS connection failed: ", "is TLS missing?"}, wantCode: exitFailure, wantDetailed: exitUnavailable},
		{name: "unreachable bootstrap server", args: describe(closedPort(t), good),
			wantStderr: []string{"no bootstrap server could be reached: ", " (connection refused)"}, wantCode: exitFailure, wantDetailed: exitUnavailable},
		{name: "GSSAPI is unsupported", args: describe(addr, unsupported),
			wantStderr: []string{unsupported + ":line 3: sasl.mechanism: GSSAPI (Kerberos) is not supported"}, wantCode: exitUsage, wantDetailed: exitUsage},
		{name: "malformed property", args: describe(addr, malformed),
			wantStderr: []string{"client properties " + malformed + ": line 2: property \"ssl.key.password\": malformed \\uxxxx encoding"}, wantCode: exitUsage, wantDetailed: exitUsage},
		{name: "missing file", args: describe(addr, filepath.Join(dir, "nope.properties")),
			wantStderr: []string{"cannot read client properties (--command-config): open " + filepath.Join(dir, "nope.properties") + ": no such file or directory"}, wantCode: exitUsage, wantDetailed: exitUsage},
		{name: "options are validated before the file is read", args: []string{"--bootstrap-server", addr, "--describe", "--topology", "--command-config", filepath.Join(dir, "nope.properties")},
			wantStderr: []string{"Option [describe] takes one of these options: [all-groups], [group]"}, wantCode: exitUsage, wantDetailed: exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, detailed := range []bool{false, true} {
				args, want := tt.args, tt.wantCode
				if detailed {
					args, want = append(append([]string{}, args...), "--detailed-exit-codes"), tt.wantDetailed
				}
				r := runCLI(t, args...)
				assert.Equal(t, want, r.code, "detailed=%v\nstderr: %s", detailed, r.stderr)
				for _, s := range tt.wantStderr {
					assert.Contains(t, r.stderr, s)
				}
				assert.Empty(t, r.stdout)
				assertNoSecrets(t, r)
			}
		})
	}
}

func TestProfile_inlineClientProperties(t *testing.T) {
	t.Parallel()
	isolate(t)
	addr, _, ca := securedCluster(t, false)
	dir := t.TempDir()
	writeFile(t, dir, "certs/ca.pem", ca.CertPEM())
	cfg := writeFile(t, dir, "config.yaml", `profiles:
  secure:
    bootstrap-server: `+addr+`
    detailed-exit-codes: true
    client-properties:
      security.protocol: SASL_SSL
      sasl.mechanism: SCRAM-SHA-512
      sasl.jaas.config: org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="`+secretPass+`";
      ssl.truststore.type: PEM
      ssl.truststore.location: certs/ca.pem
  typo:
    bootstrap-server: `+addr+`
    client-properties:
      security.protocol: SASL_SSL
      sasl.mechanizm: PLAIN
`)
	r := runCLI(t, "--config", cfg, "--profile", "secure", "--describe", "--topology", "--group", "g", "--debug")
	assert.Equal(t, exitTooOld, r.code, r.stderr)
	assert.Contains(t, r.stderr, `debug: config file: `+cfg+`; profile: secure; client properties: profile "secure" in `+cfg+`; security: SASL_SSL SCRAM-SHA-512; bootstrap: `+addr)
	assert.Contains(t, r.stderr, "] > SASLAuthenticate v2 correlation_id=")
	assert.Contains(t, r.stderr, "] > ApiVersions v4 correlation_id=")
	assertNoSecrets(t, r)

	r = runCLI(t, "--config", cfg, "--profile", "typo", "--describe", "--topology", "--group", "g")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, `profile "typo" in `+cfg+`: sasl.mechanizm: unsupported property`)
}

// TestLoadConfig_values pins how the typed settings read what YAML, the
// environment and flags give: whole numbers only (a float must be whole, a
// string is decimal), booleans only (as strconv.ParseBool spells them), and
// strings trimmed.
func TestLoadConfig_values(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		file         string
		env          map[string]string
		args         []string
		wantTimeout  time.Duration
		wantDetailed bool
		wantDebug    bool
		wantErr      string
	}{
		{name: "YAML int", file: "timeout: 1500\n", wantTimeout: 1500 * time.Millisecond},
		{name: "YAML whole float", file: "timeout: 2000.0\n", wantTimeout: 2 * time.Second},
		{name: "YAML float", file: "timeout: 1500.5\n", wantErr: "invalid timeout 1500.5: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML string trimmed", file: "timeout: ' 42 '\n", wantTimeout: 42 * time.Millisecond},
		{name: "YAML string is decimal", file: "timeout: '010'\n", wantTimeout: 10 * time.Millisecond},
		{name: "YAML string float", file: "timeout: '1.5'\n", wantErr: "invalid timeout 1.5: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML string hex", file: "timeout: '0x10'\n", wantErr: "invalid timeout 0x10: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML bool timeout", file: "timeout: true\n", wantErr: "invalid timeout true: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML empty timeout", file: "timeout: ''\n", wantErr: "invalid timeout : want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML negative", file: "timeout: -5\n", wantErr: "invalid timeout -5: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML float out of range", file: "timeout: 1.0e+19\n", wantErr: "invalid timeout 1e+19: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "YAML uint64 out of range", file: "timeout: 18446744073709551615\n", wantErr: "invalid timeout 18446744073709551615: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "env trimmed", env: map[string]string{"KSTREAMS_GROUPS_TIMEOUT": " 2500 ", "KSTREAMS_GROUPS_DETAILED_EXIT_CODES": " TRUE ", "KSTREAMS_GROUPS_DEBUG": "t"},
			wantTimeout: 2500 * time.Millisecond, wantDetailed: true, wantDebug: true},
		{name: "env bool spelled yes", env: map[string]string{"KSTREAMS_GROUPS_DEBUG": "yes"}, wantErr: "invalid debug yes: want true or false"},
		{name: "YAML bool as number", file: "detailed-exit-codes: 1\n", wantErr: "invalid detailed-exit-codes 1: want true or false"},
		{name: "YAML bool as string", file: "debug: 'True'\ndetailed-exit-codes: \"0\"\n", wantTimeout: 30 * time.Second, wantDebug: true},
		{name: "YAML null timeout", file: "timeout:\n", wantTimeout: 30 * time.Second},
		{name: "YAML whole float bool", file: "debug: 1.0\n", wantErr: "invalid debug 1: want true or false"},
		{name: "flag", args: []string{"--timeout", "700", "--debug", "--detailed-exit-codes=false"}, wantTimeout: 700 * time.Millisecond, wantDebug: true},
		// A duration as well as Kafka's milliseconds, in every layer.
		{name: "flag duration", args: []string{"--timeout", "10s"}, wantTimeout: 10 * time.Second},
		{name: "flag milliseconds duration", args: []string{"--timeout", "500ms"}, wantTimeout: 500 * time.Millisecond},
		{name: "flag minute", args: []string{"--timeout", "1m"}, wantTimeout: time.Minute},
		{name: "flag compound", args: []string{"--timeout", "1m30s"}, wantTimeout: 90 * time.Second},
		{name: "env duration", env: map[string]string{"KSTREAMS_GROUPS_TIMEOUT": " 2s "}, wantTimeout: 2 * time.Second},
		{name: "YAML duration", file: "timeout: 45s\n", wantTimeout: 45 * time.Second},
		{name: "YAML quoted duration", file: "timeout: '1.5s'\n", wantTimeout: 1500 * time.Millisecond},
		{name: "flag bad unit", args: []string{"--timeout", "10x"}, wantErr: "invalid timeout 10x: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "flag negative duration", args: []string{"--timeout", "-1s"}, wantErr: "invalid timeout -1s: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "flag under a millisecond", args: []string{"--timeout", "500us"}, wantErr: "invalid timeout 500us: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "flag duration out of range", args: []string{"--timeout", "10000000000h"}, wantErr: "invalid timeout 10000000000h: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
		{name: "flag milliseconds out of int64", args: []string{"--timeout", "99999999999999999999"}, wantErr: "invalid timeout 99999999999999999999: want at most 9223372036854 ms (the largest duration)"},
		{name: "env bad", env: map[string]string{"KSTREAMS_GROUPS_TIMEOUT": "soon"}, wantErr: "invalid timeout soon: want a positive number of milliseconds or a duration such as 10s, 500ms or 1m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			// An error names where the value came from: the file's line (the
			// bad key is on line 1 in every case) or the variable.
			at := ""
			if tt.file != "" {
				path := writeFile(t, t.TempDir(), "config.yaml", tt.file)
				setenv(t, "KSTREAMS_GROUPS_CONFIG", path)
				at = "config file " + path + ": line 1: "
			}
			for k, v := range tt.env {
				setenv(t, k, v)
				at = k + ": "
			}
			cfg, err := loadFor(t, tt.args...)
			if tt.wantErr != "" {
				var ue *usageError
				require.ErrorAs(t, err, &ue)
				assert.EqualError(t, err, at+tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantTimeout, cfg.Timeout)
			assert.Equal(t, tt.wantDetailed, cfg.DetailedExitCodes)
			assert.Equal(t, tt.wantDebug, cfg.Debug)
		})
	}
}

// The resolver names the layer each value came from: flag, variable,
// profile, config file or default.
func TestResolver_origin(t *testing.T) {
	t.Parallel()
	isolate(t)
	dir := t.TempDir()
	path := writeFile(t, dir, "config.yaml", "timeout: 1000\nprofile: p\ndebug: true\nprofiles:\n  p:\n    bootstrap-server: p:9092\n    debug: false\n")
	setenv(t, "KSTREAMS_GROUPS_CONFIG", path)
	setenv(t, "KSTREAMS_GROUPS_DETAILED_EXIT_CODES", "true")
	a := &app{io: IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, deps: deps{env: testEnv(t)}}
	root := a.newRootCmd()
	root.SetContext(context.Background())
	require.NoError(t, root.ParseFlags([]string{"--output", "json"}))
	r, err := newResolver(root, a.deps.env, nil)
	require.NoError(t, err)
	tests := []struct {
		key   string
		value any
		want  origin
	}{
		{"output", "json", origin{layer: fromFlag}},
		{"detailed-exit-codes", "true", origin{fromEnv, "KSTREAMS_GROUPS_DETAILED_EXIT_CODES"}},
		{"bootstrap-server", "p:9092", origin{fromProfile, "config file " + path + `: line 6: profile "p"`}},
		{"debug", false, origin{fromProfile, "config file " + path + `: line 7: profile "p"`}},
		{"timeout", 1000, origin{fromFile, "config file " + path + ": line 1"}},
		{"command-config", "", origin{layer: fromDefault}},
	}
	for _, tt := range tests {
		v, o := r.get(tt.key)
		assert.Equal(t, tt.value, v, tt.key)
		assert.Equal(t, tt.want, o, tt.key)
	}
}
