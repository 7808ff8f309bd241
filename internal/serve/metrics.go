package serve

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// clusterFamilies are a cycle's group families as the exposition's
// families, each sample labelled cluster first: the same names, labels and
// values as -o prometheus (format's families, one definition). They are
// built once per cycle, so a scrape only encodes them. With maxSeries > 0
// the families below group level are dropped whole past it (capFamilies)
// and the series dropped counted.
//
// They stay in memory from one cycle to the next, some 40,000 series for
// 2,000 groups, so what the series have in common is shared: a label
// pair (the group's name, a state) is one value for every series that
// has it, and so is a gauge value (most are 0 or 1). The encoders only
// read them.
func clusterFamilies(cluster string, fams []*format.PromFamily, maxSeries int) (out []*dto.MetricFamily, series, dropped int) {
	kept, dropped := capFamilies(fams, maxSeries)
	in := interner{pairs: map[[2]string]*dto.LabelPair{}, gauges: map[float64]*dto.Gauge{}, names: map[string]*string{}}
	clusterLabel := in.pair("cluster", cluster)
	for _, f := range kept {
		n := len(f.Samples)
		mf := &dto.MetricFamily{Name: proto.String(f.Name), Help: proto.String(f.Help), Type: dto.MetricType_GAUGE.Enum(),
			Metric: make([]*dto.Metric, n)}
		// One allocation for the family's metrics and one for their
		// label lists.
		width := 1 + len(f.Samples[0].Labels)/2
		labels := make([]*dto.LabelPair, 0, n*width)
		metrics := make([]dto.Metric, n)
		for i, s := range f.Samples {
			from := len(labels)
			labels = append(labels, clusterLabel)
			for j := 0; j < len(s.Labels); j += 2 {
				labels = append(labels, in.pair(s.Labels[j], s.Labels[j+1]))
			}
			metrics[i].Label, metrics[i].Gauge = labels[from:len(labels):len(labels)], in.gauge(s.Value)
			mf.Metric[i] = &metrics[i]
		}
		series += n
		out = append(out, mf)
	}
	return out, series, dropped
}

// capFamilies are the families kept under maxSeries (0: no cap), in
// their order, and the series dropped. While there are more series than
// maxSeries, the family below group level (one with a subtopology label:
// per sub-topology, task or partition) with the most labels is dropped
// whole, the last written first among equals. A family is never cut in
// the middle, which would export a series for some groups and not for
// others, and the group-level families (kstreams_group_up, the state,
// the check status, ...) are never dropped: every group keeps them, even
// when they alone pass the cap.
func capFamilies(fams []*format.PromFamily, maxSeries int) (kept []*format.PromFamily, dropped int) {
	total := 0
	for _, f := range fams {
		total += len(f.Samples)
	}
	if maxSeries <= 0 || total <= maxSeries {
		return fams, 0
	}
	var below []int
	for i, f := range fams {
		if belowGroup(f) {
			below = append(below, i)
		}
	}
	// The most labels first; among equals, the last written first.
	slices.SortStableFunc(below, func(a, b int) int {
		return cmp.Or(cmp.Compare(len(fams[b].Samples[0].Labels), len(fams[a].Samples[0].Labels)), cmp.Compare(b, a))
	})
	drop := make([]bool, len(fams))
	for _, i := range below {
		if total <= maxSeries {
			break
		}
		drop[i] = true
		total -= len(fams[i].Samples)
		dropped += len(fams[i].Samples)
	}
	for i, f := range fams {
		if !drop[i] {
			kept = append(kept, f)
		}
	}
	return kept, dropped
}

// belowGroup tells a family of a group's parts: it has a subtopology
// label.
func belowGroup(f *format.PromFamily) bool {
	l := f.Samples[0].Labels
	for j := 0; j < len(l); j += 2 {
		if l[j] == "subtopology" {
			return true
		}
	}
	return false
}

// interner shares the label pairs and gauges of one cycle's families.
type interner struct {
	pairs  map[[2]string]*dto.LabelPair
	gauges map[float64]*dto.Gauge
	names  map[string]*string
}

// pair is the label pair of a label name and a broker-supplied value
// (PromLabelValue gives the value written).
func (in interner) pair(name, value string) *dto.LabelPair {
	k := [2]string{name, value}
	p := in.pairs[k]
	if p == nil {
		n := in.names[name]
		if n == nil {
			n = proto.String(name)
			in.names[name] = n
		}
		p = &dto.LabelPair{Name: n, Value: proto.String(format.PromLabelValue(value))}
		in.pairs[k] = p
	}
	return p
}

// gauge is a gauge of value v. A NaN never matches a key and -0 would
// match 0: each gets a gauge of its own.
func (in interner) gauge(v float64) *dto.Gauge {
	if v != v || (v == 0 && math.Signbit(v)) {
		return &dto.Gauge{Value: proto.Float64(v)}
	}
	g := in.gauges[v]
	if g == nil {
		g = &dto.Gauge{Value: proto.Float64(v)}
		in.gauges[v] = g
	}
	return g
}

// gatherer answers a scrape from the published snapshots: the group
// families of every cluster, merged by name, and the collectors' own
// metrics with the process's (own). It sends no Kafka request.
type gatherer struct {
	cs  Collectors
	own prometheus.Gatherer
}

func (g gatherer) Gather() ([]*dto.MetricFamily, error) {
	own, err := g.own.Gather()
	if err != nil {
		return nil, err
	}
	byName := map[string]*dto.MetricFamily{}
	var out []*dto.MetricFamily
	for _, c := range g.cs {
		for _, f := range c.cur.Load().families {
			m, ok := byName[f.GetName()]
			if !ok {
				// A shallow copy: the published family is shared by every
				// scrape and never changes.
				m = &dto.MetricFamily{Name: f.Name, Help: f.Help, Type: f.Type, Metric: f.Metric}
				byName[f.GetName()] = m
				out = append(out, m)
				continue
			}
			m.Metric = append(slices.Clip(m.Metric), f.Metric...)
		}
	}
	out = append(out, own...)
	slices.SortFunc(out, func(a, b *dto.MetricFamily) int { return cmp.Compare(a.GetName(), b.GetName()) })
	return out, nil
}

// MetricNames are the names of every family /metrics may export but the
// Go and process metrics: the -o prometheus families and serve's own.
func MetricNames() []string {
	names := format.PromFamilyNames()
	ch := make(chan *prometheus.Desc, 16)
	newSelfCollector(nil).Describe(ch)
	close(ch)
	for d := range ch {
		// The Desc's name is only in its String form: fqName: "name".
		s := d.String()
		s = s[strings.Index(s, `fqName: "`)+len(`fqName: "`):]
		names = append(names, s[:strings.IndexByte(s, '"')])
	}
	return names
}

// selfCollector exports the collectors' own metrics from what they
// published.
type selfCollector struct {
	cs                                                  Collectors
	duration, lastSuccess, stale, series, errs, dropped *prometheus.Desc
}

func newSelfCollector(cs Collectors) *selfCollector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, []string{"cluster"}, nil)
	}
	return &selfCollector{cs: cs,
		duration:    d("kstreams_serve_cycle_duration_seconds", "How long the last cycle of the cluster took, successful or not."),
		lastSuccess: d("kstreams_serve_last_success_timestamp_seconds", "When the last successful cycle of the cluster ended (Unix time; absent before the first)."),
		stale:       d("kstreams_serve_stale", "1 when the last cycle failed and the group metrics are the last good cycle's, else 0."),
		series:      d("kstreams_serve_series", "Group series exported for the cluster."),
		errs:        d("kstreams_serve_cycle_errors_total", "Cycles of the cluster that failed."),
		dropped:     d("kstreams_serve_dropped_series_total", "Group series left out by --max-series, summed over the cycles."),
	}
}

func (s *selfCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{s.duration, s.lastSuccess, s.stale, s.series, s.errs, s.dropped} {
		ch <- d
	}
}

func (s *selfCollector) Collect(ch chan<- prometheus.Metric) {
	for _, c := range s.cs {
		p := c.cur.Load()
		name := format.PromLabelValue(c.Name())
		if p.snap.Taken.IsZero() {
			// No cycle yet: nothing measured.
			ch <- prometheus.MustNewConstMetric(s.stale, prometheus.GaugeValue, 0, name)
		} else {
			ch <- prometheus.MustNewConstMetric(s.duration, prometheus.GaugeValue, p.snap.CycleSeconds, name)
			ch <- prometheus.MustNewConstMetric(s.stale, prometheus.GaugeValue, b2f(p.snap.Stale), name)
		}
		if !p.snap.LastSuccess.IsZero() {
			ch <- prometheus.MustNewConstMetric(s.lastSuccess, prometheus.GaugeValue, float64(p.snap.LastSuccess.UnixMilli())/1000, name)
		}
		ch <- prometheus.MustNewConstMetric(s.series, prometheus.GaugeValue, float64(p.series), name)
		ch <- prometheus.MustNewConstMetric(s.errs, prometheus.CounterValue, float64(p.errors), name)
		ch <- prometheus.MustNewConstMetric(s.dropped, prometheus.CounterValue, float64(p.dropped), name)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
