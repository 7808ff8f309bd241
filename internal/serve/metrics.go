package serve

import (
	"cmp"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/kstreams-groups/kstreams-groups/internal/format"
)

// capFamilies are the families kept under maxSeries (0: no cap), in
// their order, and the series kept and dropped. While there are more
// series than maxSeries, the family below group level (one with a
// subtopology label: per sub-topology, task or partition) with the most
// labels is dropped whole, the last written first among equals. A family
// is never cut in the middle, which would export a series for some groups
// and not for others, and the group-level families (kstreams_group_up,
// the state, the check status, ...) are never dropped: every group keeps
// them, even when they alone pass the cap.
func capFamilies(fams []*dto.MetricFamily, maxSeries int) (kept []*dto.MetricFamily, series, dropped int) {
	for _, f := range fams {
		series += len(f.Metric)
	}
	if maxSeries <= 0 || series <= maxSeries {
		return fams, series, 0
	}
	var below []int
	for i, f := range fams {
		if slices.ContainsFunc(f.Metric[0].Label, func(l *dto.LabelPair) bool { return l.GetName() == "subtopology" }) {
			below = append(below, i)
		}
	}
	// The most labels first; among equals, the last written first.
	slices.SortStableFunc(below, func(a, b int) int {
		return cmp.Or(cmp.Compare(len(fams[b].Metric[0].Label), len(fams[a].Metric[0].Label)), cmp.Compare(b, a))
	})
	drop := make([]bool, len(fams))
	for _, i := range below {
		if series <= maxSeries {
			break
		}
		drop[i] = true
		series -= len(fams[i].Metric)
		dropped += len(fams[i].Metric)
	}
	for i, f := range fams {
		if !drop[i] {
			kept = append(kept, f)
		}
	}
	return kept, series, dropped
}

// collector answers a scrape from the published snapshots: the group
// families of every cluster, built once per cycle, and the collectors'
// own metrics. It sends no Kafka request. It is unchecked (it describes
// nothing): the families it exports change with the cycles.
type collector struct{ cs Collectors }

func (collector) Describe(chan<- *prometheus.Desc) {}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	descs := map[string]*prometheus.Desc{}
	for _, cl := range c.cs {
		p := cl.cur.Load()
		for _, f := range p.families {
			d := descs[f.GetName()]
			if d == nil {
				d = prometheus.NewDesc(f.GetName(), f.GetHelp(), nil, nil)
				descs[f.GetName()] = d
			}
			for _, m := range f.Metric {
				ch <- builtMetric{d, m}
			}
		}
		self(ch, cl.Name(), p)
	}
}

// builtMetric is a published series: the registry reads its labels and
// value, shared by every scrape and never changed.
type builtMetric struct {
	desc *prometheus.Desc
	m    *dto.Metric
}

func (b builtMetric) Desc() *prometheus.Desc { return b.desc }
func (b builtMetric) Write(out *dto.Metric) error {
	out.Label, out.Gauge = b.m.Label, b.m.Gauge
	return nil
}

// self sends a cluster's collector metrics, from what it published.
func self(ch chan<- prometheus.Metric, cluster string, p *published) {
	send := func(m format.PromMetric, v float64) {
		t := prometheus.GaugeValue
		if m.Counter() {
			t = prometheus.CounterValue
		}
		d := prometheus.NewDesc(m.Name(), m.Help(), []string{"cluster"}, nil)
		ch <- prometheus.MustNewConstMetric(d, t, v, format.PromLabelValue(cluster))
	}
	if p.snap.Taken.IsZero() {
		// No cycle yet: nothing measured.
		send(format.PromServeStale, 0)
	} else {
		send(format.PromServeCycleDuration, p.snap.CycleSeconds)
		send(format.PromServeStale, b2f(p.snap.Stale))
	}
	if !p.snap.LastSuccess.IsZero() {
		send(format.PromServeLastSuccess, float64(p.snap.LastSuccess.UnixMilli())/1000)
	}
	send(format.PromServeSeries, float64(p.series))
	send(format.PromServeCycleErrors, float64(p.errors))
	send(format.PromServeDroppedSeries, float64(p.dropped))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
