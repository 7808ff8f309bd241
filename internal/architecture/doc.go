// Package architecture holds no code, only the tests that enforce
// docs/ARCHITECTURE.md: which package may import which (from `go list`),
// that models carry no document tags, that internal packages never print
// or exit, and that every package says its one job in a doc comment.
package architecture
