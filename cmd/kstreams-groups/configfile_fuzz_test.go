package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzConfigFile feeds any bytes to --config: reading it never panics, a
// file it cannot use is a usage error (exit 2) that names the file, and
// the errors of its syntax and shape name the line too; nothing from it
// reaches stderr raw. The values' own checks (a timeout that is not a
// number) are the other half of the config items.
func FuzzConfigFile(f *testing.F) {
	for _, s := range []string{
		profilesYAML, "", "{}", "- a\n", "timeout: 5000\n", "bootstrap-server: [a, b]\n", "profiles: x\n", "profiles:\n  p: 1\n",
		"profiles:\n  p:\n    nope: 1\n", "client-properties: 1\n", "client-properties:\n  a: [1]\n", "x: 1\n", "\t- x\n",
		"a: \x01\n", "a: \xff\n", "\ufeffoutput: json\n", "output: \"\\x1b\"\n", "&a x: *a\n", "bootstrap-server: *nope\n",
		"%YAML 1.1\n---\ntimeout: 1\n", "---\n---\n", "timeout: !!binary AAAA\n", "? [a]\n: b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		reached := false
		d := deps{runF: func(string, any) error { reached = true; return nil }}
		code := testRun(t, []string{"--config", path, "--list", "--bootstrap-server", "127.0.0.1:9"}, IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, d)
		stderr := errOut.String()
		for _, r := range stderr {
			if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
				t.Fatalf("stderr holds the raw control %U: %q", r, stderr)
			}
		}
		switch {
		case reached:
			return
		case code != exitUsage:
			t.Fatalf("exit %d, want 2 for a config file that cannot be used: %q", code, stderr)
		case !strings.HasPrefix(stderr, "config file "+path+": "):
			// Not the file's syntax or shape: a value check.
			if !strings.Contains(stderr, "invalid ") && !strings.Contains(stderr, "unknown output format") && !strings.Contains(stderr, "profile ") {
				t.Fatalf("the error names neither the file nor a value: %q", stderr)
			}
		case !strings.Contains(stderr, "line "):
			t.Fatalf("the error names no line: %q", stderr)
		}
	})
}
