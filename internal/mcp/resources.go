package mcp

// The groups of a cluster as MCP resources: each group's overview (the
// overview -o json document), its topology description (the text of
// describe --topology, as Kafka's tool prints it) and the topology as a
// PNG picture, at kstreams-groups://CLUSTER/GROUP/KIND. The groups come
// and go, so the list is read when asked (resources/list, paged) and a
// read goes through the templates, one per kind.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ResourceScheme is the scheme of the groups' resources.
const ResourceScheme = "kstreams-groups"

// ResourceKind is one resource of a group.
type ResourceKind string

// The kinds of a group's resources.
const (
	// Overview is the overview -o json document.
	Overview ResourceKind = "overview"
	// Topology is the topology description as describe --topology
	// prints it.
	Topology ResourceKind = "topology"
	// TopologyPNG is the topology drawn, as describe --topology -o png
	// draws it.
	TopologyPNG ResourceKind = "topology.png"
)

// kindInfo is a kind with its MIME type and what it is.
type kindInfo struct {
	kind        ResourceKind
	mime, title string
	about       string
}

// kinds are the kinds in the order a group's resources are listed, with
// what they are.
var kinds = []kindInfo{
	{Overview, "application/json", "overview",
		"The group's overview document (overview -o json): who runs each task with its standbys, whether it is moving, and its lag, with totals per sub-topology and group."},
	{Topology, "text/plain", "topology description",
		"The topology description the broker stored for the group (KIP-1331), as kafka-streams-groups.sh --describe --topology prints it."},
	{TopologyPNG, "image/png", "topology picture",
		"The group's topology drawn as a PNG picture (describe --topology -o png), for an assistant that shows images."},
}

// MaxResourceBytes bounds a resource's content: a larger one is refused
// with an error that names the tool that pages it.
const MaxResourceBytes = 4 << 20

// resourcesPage is the most resources one resources/list answer holds.
const resourcesPage = 150

// GroupResources are where a cluster's groups and their resources come
// from.
type GroupResources struct {
	// Cluster names the cluster in the resources' URIs.
	Cluster string
	// Groups lists the cluster's streams groups, by name.
	Groups func(ctx context.Context) ([]string, error)
	// Read is one resource of a group: its content, or an error whose
	// text the client gets.
	Read func(ctx context.Context, group string, kind ResourceKind) ([]byte, error)
	// Scopes are the group name prefixes served (Config.Scopes): the
	// other groups are not listed and their reads refused (scope
	// violation); none means every group.
	Scopes []string
	// Audit, when set, gets a line per resources/list and resources/read
	// as for a tool call (audit.go), its tool named by the method.
	Audit io.Writer
	// Now is the audit log's clock; nil is time.Now.
	Now func() time.Time
}

// inScope tells whether r serves group's resources.
func (r GroupResources) inScope(group string) bool {
	return len(r.Scopes) == 0 || slices.ContainsFunc(r.Scopes, func(p string) bool { return strings.HasPrefix(group, p) })
}

// ResourceURI is the URI of a group's resource.
func ResourceURI(cluster, group string, kind ResourceKind) string {
	return ResourceScheme + "://" + escapeSegment(cluster) + "/" + escapeSegment(group) + "/" + string(kind)
}

// AddResources adds the groups of r as resources of s: a template per
// kind (resources/templates/list, and what resources/read matches) and
// the list of every group's (resources/list).
func AddResources(s *sdk.Server, r GroupResources) {
	if r.Now == nil {
		r.Now = time.Now
	}
	audit := newAuditLog(r.Audit, r.Now)
	for _, k := range kinds {
		s.AddResourceTemplate(&sdk.ResourceTemplate{
			Name:        string(k.kind),
			Title:       "A streams group's " + k.title,
			Description: k.about + " GROUP is the group's name, percent-encoded.",
			MIMEType:    k.mime,
			URITemplate: ResourceScheme + "://" + escapeSegment(r.Cluster) + "/{group}/" + string(k.kind),
		}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			res, err := r.read(ctx, req)
			audit.record("resources/read", map[string]any{"uri": req.Params.URI}, resourceOutcome(err), errorText(err))
			return res, err
		})
	}
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method != "resources/list" {
				return next(ctx, method, req)
			}
			var cursor string
			if p, ok := req.GetParams().(*sdk.ListResourcesParams); ok && p != nil {
				cursor = p.Cursor
			}
			res, err := r.list(ctx, cursor)
			audit.record("resources/list", map[string]any{"cursor": cursor}, resourceOutcome(err), errorText(err))
			return res, err
		}
	})
}

// list is one page of every group's resources, from cursor (the index of
// the first, as text).
func (r GroupResources) list(ctx context.Context, cursor string) (*sdk.ListResourcesResult, error) {
	from := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
		from = n
	}
	all, err := r.Groups(ctx)
	if err != nil {
		return nil, err
	}
	groups := slices.DeleteFunc(all, func(g string) bool { return !r.inScope(g) })
	res := &sdk.ListResourcesResult{Resources: []*sdk.Resource{}}
	total := len(groups) * len(kinds)
	for i := from; i < total && len(res.Resources) < resourcesPage; i++ {
		g, k := groups[i/len(kinds)], kinds[i%len(kinds)]
		res.Resources = append(res.Resources, &sdk.Resource{
			URI:         ResourceURI(r.Cluster, g, k.kind),
			Name:        g + "/" + string(k.kind),
			Title:       g + ": " + k.title,
			Description: k.about,
			MIMEType:    k.mime,
		})
	}
	if next := from + len(res.Resources); next < total {
		res.NextCursor = strconv.Itoa(next)
	}
	return res, nil
}

// read answers resources/read for a URI one of the templates matched.
func (r GroupResources) read(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	group, kind, ok := r.parse(uri)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	if !r.inScope(group) {
		return nil, &jsonrpc.Error{Code: CodeScopeViolation, Message: fmt.Sprintf("group out of scope: %q", group)}
	}
	b, err := r.Read(ctx, group, kind.kind)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxResourceBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a resource carries: call the %s tool, which pages its answer",
			uri, len(b), MaxResourceBytes, toolOf(kind.kind))
	}
	c := &sdk.ResourceContents{URI: uri, MIMEType: kind.mime}
	if kind.kind == TopologyPNG {
		c.Blob = b
	} else {
		c.Text = string(b)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{c}}, nil
}

// toolOf is the tool that answers what a resource holds.
func toolOf(k ResourceKind) string {
	if k == Overview {
		return "overview"
	}
	return "describe"
}

// parse is the group and kind of one of r's URIs.
func (r GroupResources) parse(uri string) (string, kindInfo, bool) {
	var none kindInfo
	rest, ok := strings.CutPrefix(uri, ResourceScheme+"://"+escapeSegment(r.Cluster)+"/")
	if !ok {
		return "", none, false
	}
	i := strings.LastIndexByte(rest, '/')
	if i <= 0 {
		return "", none, false
	}
	group, err := unescapeSegment(rest[:i])
	if err != nil || group == "" {
		return "", none, false
	}
	for _, k := range kinds {
		if string(k.kind) == rest[i+1:] {
			return group, k, true
		}
	}
	return "", none, false
}

// escapeSegment percent-encodes every byte of s but RFC 3986's unreserved
// ones, as a URI template's simple expansion does: a group name may hold
// '/', ':' or anything else. (QueryEscape escapes those same bytes, but
// writes a space as '+'.)
func escapeSegment(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// unescapeSegment undoes escapeSegment; anything else escaped is refused.
func unescapeSegment(s string) (string, error) {
	if strings.ContainsFunc(s, func(c rune) bool { return c != '%' && escapeSegment(string(c)) != string(c) }) {
		return "", errors.New("unescaped reserved character")
	}
	return url.PathUnescape(s)
}

// resourceOutcome names how a resource request ended, for the audit log.
func resourceOutcome(err error) string {
	if err == nil {
		return "ok"
	}
	return outcomeOf(err)
}

// errorText is err's text, "" for nil.
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
