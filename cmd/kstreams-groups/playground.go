package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
)

func (a *app) playgroundCommand() *command {
	var seedFile, addrFile string
	var port int
	return &command{
		name:  "playground",
		short: "Serve a built-in Kafka test cluster with sample streams groups",
		long: `Serve the project's Kafka-protocol test broker on 127.0.0.1, seeded with
streams groups, so that every command can be tried without a Kafka cluster.
The default seed holds a 3-node Kafka 4.4 cluster with the streams groups
word-count (topology AVAILABLE), inventory (NOT_STORED), billing (ERROR),
fraud-detector (Empty), page-views (three instances with standby and
warm-up tasks, a task moving, uneven lag: try overview on it), order-audit
(stopped, with committed offsets to reset) and clicks (an instance joins
and leaves every few seconds: watch it rebalance with describe --members
--watch), and the classic group legacy-consumer. The playground keeps every
change in memory: started again, it is the seed again. --seed loads another
seed (YAML or JSON; schema in internal/playground/STATE.md), whose timeline
may script such changes.
The bootstrap address is printed on stdout, and on stderr the export line
that points every command at it and how to stop it; --addr-file FILE writes
the address to FILE too, which is removed at the start and written whole
once the cluster listens, so that a script waiting for it never reads an
earlier run's. The cluster runs until interrupted, and SIGINT or SIGTERM
end it with exit 0 (130 or 143 while the seed is still being read).`,
		// stdout is the bootstrap address alone, for scripts; it talks to
		// no cluster, so a config file's output (or a broken file) does
		// not stop it: only -o given to it is checked.
		outputs:  []outputRule{{formats: []format.Output{format.Text}}},
		noConfig: true,
		exits:    []int{exitOK, exitFailure, exitUsage, exitSIGINT, exitSIGTERM},
		example: `  # Serve the playground in the background, wait for its address, then use it
  # (the file is removed first: the loop must not read an earlier run's)
  rm -f /tmp/playground.addr
  kstreams-groups playground --addr-file /tmp/playground.addr > /dev/null &
  until [ -s /tmp/playground.addr ]; do sleep 0.1; done
  export KSTREAMS_GROUPS_BOOTSTRAP_SERVER=$(cat /tmp/playground.addr)
  kstreams-groups describe --topology --group word-count`,
		register: func(fs *pflag.FlagSet) {
			fs.StringVar(&seedFile, "seed", "", "Seed file (YAML or JSON) instead of the built-in seed, or the name of a built-in seed where no such file exists: "+strings.Join(playground.BuiltinSeedNames(), ", ")+".")
			// --state was the flag's first name, though the file is a seed
			// and --state is a group state everywhere else: kept, hidden,
			// for one release. Not pflag's MarkDeprecated: cobra prints
			// its notice on stdout, which must stay the address alone.
			fs.StringVar(&seedFile, "state", "", "Deprecated: use --seed.")
			_ = fs.MarkHidden("state")
			fs.IntVar(&port, "port", 0, "Port of node 0; node i listens on port+i (default: free ports).")
			fs.StringVar(&addrFile, "addr-file", "", "Write the bootstrap address to this file once the cluster listens (removed at the start, written whole).")
		},
		run: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("state") {
				fmt.Fprintln(a.io.ErrOut, "Flag --state has been deprecated, use --seed")
			}
			// Before anything that takes time: a waiter must not find
			// the address of an earlier run.
			if err := removeStale(addrFile); err != nil {
				return err
			}
			state := playground.DefaultState()
			if seedFile != "" {
				data, err := stateInput.readFile(cmd.Context(), "state file "+seedFile, seedFile)
				if err := asUsage(err, "cannot read state file: "); err != nil {
					return err
				}
				if state, err = playground.ParseState([]byte(data)); err != nil {
					return usageErrorf("state file %s: %v", seedFile, err)
				}
			}
			if nodes := max(state.Nodes, 1); port < 0 || port > 65536-nodes {
				return usageErrorf("invalid --port %d: want 1-%d for %d nodes (node i listens on port+i), or 0 for free ports", port, 65536-nodes, nodes)
			}
			cluster, err := playground.Start(playground.Config{Nodes: state.Nodes, Profile: state.Profile, ClusterID: state.ClusterID, Port: port, NoRequestLog: true,
				// The seed's record ages count back from here (produced_over).
				Now: a.clock().Now})
			if err != nil {
				return err
			}
			defer cluster.Close()
			if err := cluster.Load(state); err != nil {
				return err
			}
			addrs := strings.Join(cluster.Addrs(), ",")
			fmt.Fprintln(a.io.Out, addrs)
			// The guidance is on stderr: stdout stays the address alone
			// for scripts, and "playground > /dev/null &" still shows it.
			// It comes before the address file, which a waiter takes as
			// the start.
			fmt.Fprint(a.io.ErrOut, playgroundGuide(addrs, os.Getpid()))
			if addrFile != "" {
				if err := writeFileAtomic(addrFile, []byte(addrs+"\n")); err != nil {
					return err
				}
			}
			go cluster.Play(cmd.Context(), state)
			<-cmd.Context().Done()
			return nil
		},
	}
}

// playgroundGuide is what the playground says on stderr once it listens:
// the line that points every command at it, and how to stop it.
func playgroundGuide(addrs string, pid int) string {
	return fmt.Sprintf("Playground cluster listening. Point kstreams-groups at it with:\n"+
		"  export KSTREAMS_GROUPS_BOOTSTRAP_SERVER=%s\n"+
		"Stop it with Ctrl-C, or kill %d when it runs in the background.\n", addrs, pid)
}

// removeStale removes an address file an earlier run left ("" is none).
func removeStale(path string) error {
	if path == "" {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("--addr-file: %w", err)
	}
	return nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory and a rename: a reader sees no file or the whole of it, never
// a part.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("--addr-file: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("--addr-file: %w", err)
	}
	return nil
}
