package topology

import "fmt"

// Status is the KIP-1331 TopologyDescriptionStatus of a described group, with
// the wire ids of Kafka's StreamsGroupTopologyDescriptionStatus.
type Status int8

// Wire ids of the description status.
const (
	NotRequested Status = 0
	NotStored    Status = 1
	Error        Status = 2
	Available    Status = 3
)

var statusNames = map[Status]string{
	NotRequested: "NOT_REQUESTED",
	NotStored:    "NOT_STORED",
	Error:        "ERROR",
	Available:    "AVAILABLE",
}

// ParseStatus validates a wire status byte; an unknown one fails with the
// message Kafka's admin client uses.
func ParseStatus(b int8) (Status, error) {
	s := Status(b)
	if _, ok := statusNames[s]; !ok {
		return 0, fmt.Errorf("Unknown topology description status %d", b)
	}
	return s, nil
}

// String returns Kafka's enum name, e.g. NOT_STORED.
func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("UNKNOWN(%d)", int8(s))
}
