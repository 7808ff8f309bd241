package playground

import (
	"regexp"
	"sync"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// softwareRE is the KIP-511 pattern a v3+ ApiVersions request must match.
var softwareRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$`) })

// finalizedFeaturesEpoch stands in for the metadata offset real brokers
// report; anything but -1 makes clients read the finalized levels.
const finalizedFeaturesEpoch = 1

func (c *Cluster) handleApiVersions(n *node, req kmsg.Request) (kmsg.Response, error) {
	r := req.(*kmsg.ApiVersionsRequest)
	resp := r.ResponseKind().(*kmsg.ApiVersionsResponse)

	if r.Version >= 3 && (!softwareRE().MatchString(r.ClientSoftwareName) || !softwareRE().MatchString(r.ClientSoftwareVersion)) {
		resp.ErrorCode = kerr.InvalidRequest.Code
		return resp, nil
	}
	if r.Version >= 5 {
		// KIP-1242: a client names the cluster and node it meant to reach
		// so a misrouted connection is detected; both or neither.
		switch {
		case (r.ClusterID != nil) != (r.NodeID >= 0):
			resp.ErrorCode = kerr.InvalidRequest.Code
			return resp, nil
		case r.ClusterID != nil && (*r.ClusterID != c.cfg.ClusterID || r.NodeID != n.id):
			resp.ErrorCode = kerr.RebootstrapRequired.Code
			return resp, nil
		}
	}

	resp.ApiKeys = c.apiKeys()
	if r.Version >= 3 {
		c.versions.EachSupportedFeature(func(name string, minV, maxV int16) {
			resp.SupportedFeatures = append(resp.SupportedFeatures, kmsg.ApiVersionsResponseSupportedFeature{
				Name: name, MinVersion: minV, MaxVersion: maxV,
			})
		})
		c.versions.EachFinalizedFeature(func(name string, level int16) {
			resp.FinalizedFeatures = append(resp.FinalizedFeatures, kmsg.ApiVersionsResponseFinalizedFeature{
				Name: name, MinVersionLevel: level, MaxVersionLevel: level,
			})
		})
		if len(resp.FinalizedFeatures) > 0 {
			resp.FinalizedFeaturesEpoch = finalizedFeaturesEpoch
		}
	}
	return resp, nil
}

// apiKeys is the advertised table, less the keys SetUnsupported left out.
// Minimum versions are 0: kversion keeps the real minima private, and
// every handler here accepts v0.
func (c *Cluster) apiKeys() []kmsg.ApiVersionsResponseApiKey {
	var keys []kmsg.ApiVersionsResponseApiKey
	c.versions.EachMaxKeyVersion(func(k, v int16) {
		if !c.offered(k) {
			return
		}
		keys = append(keys, kmsg.ApiVersionsResponseApiKey{ApiKey: k, MinVersion: 0, MaxVersion: v})
	})
	return keys
}

// apiVersionsFallback is the v0 body a broker sends for an ApiVersions
// version it does not support: UNSUPPORTED_VERSION plus only its own
// ApiVersions range (Java ApiVersionsRequest.getErrorResponse), which is what
// kgo's downgrade logic looks for.
func (c *Cluster) apiVersionsFallback() []byte {
	resp := kmsg.NewPtrApiVersionsResponse()
	resp.Version = 0
	resp.ErrorCode = kerr.UnsupportedVersion.Code
	resp.ApiKeys = []kmsg.ApiVersionsResponseApiKey{{ApiKey: apiVersionsKey, MinVersion: 0, MaxVersion: c.maxVers[apiVersionsKey]}}
	return resp.AppendTo(nil)
}
