package topoparse

import "github.com/kstreams-groups/kstreams-groups/internal/topology"

// Parse is ParseString of bytes, for the tests.
func Parse(data []byte) (*topology.Description, error) { return ParseString(string(data)) }
