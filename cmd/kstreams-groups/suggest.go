package main

// Usage errors a person can act on: a misspelt flag or subcommand gets the
// closest names ("did you mean"), and pflag's value errors lose the Go
// parser's words (strconv.ParseInt: parsing "10s": invalid syntax).

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError rewrites a flag error of pflag for c's command line: an
// unknown flag gets suggestions, a bad value a plain reason.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if s := suggestFlags(c, name); len(s) > 0 {
			return fmt.Errorf("%w; did you mean %s?", err, joinList(s, "or"))
		}
		return err
	}
	if m := strconvError().FindStringSubmatch(msg); m != nil {
		return errors.New(strings.Replace(msg, m[0], plainReason(m[1], m[2]), 1))
	}
	return err
}

// strconvError is the Go parser's part of a pflag value error.
var strconvError = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`strconv\.Parse(Int|Uint|Float|Bool): parsing "(?:[^"\\]|\\.)*": (.*)$`)
})

func plainReason(kind, why string) string {
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number, 0 or more", "Float": "a number", "Bool": "true or false"}[kind]
	if strings.Contains(why, "out of range") {
		return "out of range"
	}
	return "want " + want
}

// suggestFlags are c's flags closest to the misspelt name: those that
// start with it, or within two edits of it.
func suggestFlags(c *cobra.Command, name string) []string {
	var names []string
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		if strings.HasPrefix(f.Name, name) || strings.HasPrefix(name, f.Name) || editDistance(name, f.Name) <= 2 {
			names = append(names, "--"+f.Name)
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	slices.Sort(names)
	if len(names) > 4 {
		names = names[:4]
	}
	return names
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = "'" + x + "'"
	}
	return out
}

// joinList is "a, b or c" (conj "or").
func joinList(s []string, conj string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + conj + " " + s[len(s)-1]
}
