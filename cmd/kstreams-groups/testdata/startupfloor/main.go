// Command startupfloor is BenchmarkStartup's "mandated floor": a hello
// world that links only the libraries the project is required to use
// (the design card's cobra, viper, franz-go's kgo and kadm and
// fatih/color; issue 23's promhttp and exporter-toolkit's web for serve
// in the same binary; issue 35's official MCP Go SDK for mcp), so that
// their package inits are paid as in ours.
package main

import (
	"fmt"

	_ "github.com/fatih/color"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/prometheus/exporter-toolkit/web"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "github.com/twmb/franz-go/pkg/kadm"
	_ "github.com/twmb/franz-go/pkg/kgo"
)

func main() { fmt.Println("hello") }
