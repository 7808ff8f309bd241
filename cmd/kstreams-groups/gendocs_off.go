//go:build !gendocs

package main

import "github.com/spf13/cobra"

// newGenDocsCmd is nil in the binary people run: gen-docs is built with
// the gendocs tag only (gendocs.go), so that no run pays the start-up of
// cobra's doc generator.
func (a *app) newGenDocsCmd() *cobra.Command { return nil }
