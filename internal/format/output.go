package format

import (
	"fmt"
	"io"
	"strings"
)

// Output is a document format chosen with -o.
type Output string

// The document formats. Text is Kafka-compatible; JSON and YAML share one
// schema (snake_case keys, a top-level object).
const (
	Text Output = "text"
	JSON Output = "json"
	YAML Output = "yaml"
	// Dot and Mermaid draw a topology; only topology views accept them.
	Dot     Output = "dot"
	Mermaid Output = "mermaid"
	// SVG and PNG are the dot drawing laid out and rendered in the
	// process (package picture); PNG is binary.
	SVG Output = "svg"
	PNG Output = "png"
	// Prometheus is the Prometheus text exposition format (prometheus.go),
	// for check, overview and list --state only.
	Prometheus Output = "prometheus"
)

// AllowedOutputs lists the formats for help and completion.
func AllowedOutputs() []Output { return []Output{Text, JSON, YAML, Dot, Mermaid, SVG, PNG, Prometheus} }

// Graph tells whether the format draws a topology.
func (o Output) Graph() bool { return o == Dot || o == Mermaid || o.Picture() }

// Picture tells whether the format is a rendered picture (svg, png).
func (o Output) Picture() bool { return o == SVG || o == PNG }

// Binary tells whether the output is not text (png).
func (o Output) Binary() bool { return o == PNG }

// ParseOutput validates an -o value.
func ParseOutput(s string) (Output, error) {
	for _, o := range AllowedOutputs() {
		if strings.EqualFold(s, string(o)) {
			return o, nil
		}
	}
	names := make([]string, 0, 3)
	for _, o := range AllowedOutputs() {
		names = append(names, string(o))
	}
	return "", fmt.Errorf("unknown output format %q (want %s)", s, strings.Join(names, ", "))
}

// Machine tells whether the format is for programs (never colored).
func (o Output) Machine() bool { return o == JSON || o == YAML || o.Graph() || o == Prometheus }

// Encode writes v, one of the documents, as an indented JSON or YAML
// document: what encoding/json and yaml.v3 write, with a topology
// description streamed from its model (encode.go).
func Encode(w io.Writer, o Output, v any) error { return encode(w, o, v) }

// Documents lists the top-level document types of the verbs, for schema
// tests; serve's own documents are internal/serve/api's (api.Documents).
func Documents() []any {
	return []any{DescribeDoc{}, DeleteDoc{}, DeleteOffsetsDoc{}, ListDoc{}, ResetOffsetsDoc{}, OverviewDoc{}, TopologyDoc{}, VersionDoc{}, DiffDoc{}, CheckDoc{}, DoctorDoc{}, GroupConfigDoc{},
		InventoryDoc{}, GroupHistoryDoc{}}
}
