package playground

import (
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// handleSaslHandshake answers as a real 4.4.0 PLAINTEXT listener does (the
// playground has no other): ILLEGAL_SASL_STATE and no mechanism (Kafka's
// KafkaApis.handleSaslHandshakeRequest; e2e/FINDINGS.md F350). A SASL
// client then fails at once instead of seeing its connection closed.
func (c *Cluster) handleSaslHandshake(_ *node, _ *kmsg.SASLHandshakeRequest, resp *kmsg.SASLHandshakeResponse) {
	resp.ErrorCode = kerr.IllegalSaslState.Code
}
