package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

func (a *app) newPlaygroundCmd() *cobra.Command {
	var stateFile, addrFile string
	var port int
	cmd := &cobra.Command{
		Use:   "playground",
		Short: "Serve a built-in Kafka test cluster with sample streams groups",
		Long: `Serve the project's Kafka-protocol test broker on 127.0.0.1, seeded with
streams groups, so that every command can be tried without a Kafka cluster.
The default seed holds a 3-node Kafka 4.4 cluster with the streams groups
word-count (topology AVAILABLE), inventory (NOT_STORED), billing (ERROR),
fraud-detector (Empty), page-views (three instances with standby and
warm-up tasks, a task moving, uneven lag: try overview on it), order-audit
(stopped, with committed offsets to reset) and clicks (an instance joins
and leaves every few seconds: watch it rebalance with describe --members
--watch), and the classic group legacy-consumer. The playground keeps every
change in memory: started again, it is the seed again. --state loads another
seed (YAML or JSON; schema in internal/playground/STATE.md), whose timeline
may script such changes.
The bootstrap address is printed on stdout; the cluster runs until
interrupted, and SIGINT or SIGTERM end it with exit 0 (130 or 143 while the
seed is still being read).` + "\n\n" + exitStatusHelpFor(exitOK, exitFailure, exitUsage, exitSIGINT, exitSIGTERM),
		Example: `  # Serve the playground and write its bootstrap address to a file
  kstreams-groups playground --addr-file /tmp/playground.addr &
  until [ -s /tmp/playground.addr ]; do sleep 0.1; done
  kstreams-groups --bootstrap-server "$(cat /tmp/playground.addr)" --describe --topology --group word-count`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			state := playground.DefaultState()
			if stateFile != "" {
				data, err := stateInput.readFile(cmd.Context(), "state file "+stateFile, stateFile)
				var ue *usageError
				switch {
				case errors.As(err, &ue):
					return err
				case err != nil:
					return usageErrorf("cannot read state file: %v", err)
				}
				if state, err = playground.ParseState([]byte(data)); err != nil {
					return usageErrorf("state file %s: %v", stateFile, err)
				}
			}
			if nodes := max(state.Nodes, 1); port < 0 || port > 65536-nodes {
				return usageErrorf("invalid --port %d: want 1-%d for %d nodes (node i listens on port+i), or 0 for free ports", port, 65536-nodes, nodes)
			}
			cluster, err := playground.Start(playground.Config{Nodes: state.Nodes, Profile: state.Profile, ClusterID: state.ClusterID, Port: port, NoRequestLog: true})
			if err != nil {
				return err
			}
			defer cluster.Close()
			if err := cluster.Load(state); err != nil {
				return err
			}
			addrs := strings.Join(cluster.Addrs(), ",")
			if addrFile != "" {
				if err := os.WriteFile(addrFile, []byte(addrs+"\n"), 0o644); err != nil {
					return err
				}
			}
			fmt.Fprintln(a.io.Out, addrs)
			go cluster.Play(cmd.Context(), state)
			<-cmd.Context().Done()
			return nil
		},
	}
	cmd.Flags().StringVar(&stateFile, "state", "", "Seed file (YAML or JSON) instead of the built-in seed, or the name of a built-in seed where no such file exists: "+strings.Join(playground.BuiltinSeedNames(), ", ")+".")
	cmd.Flags().IntVar(&port, "port", 0, "Port of node 0; node i listens on port+i (default: free ports).")
	cmd.Flags().StringVar(&addrFile, "addr-file", "", "Write the bootstrap address to this file once the cluster listens.")
	return cmd
}
