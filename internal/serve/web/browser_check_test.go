package web_test

// What a person sees, checked in the browser: no label outside its box
// at the widths people use, the summary's labels over their values,
// no serious or critical finding of axe-core (the accessibility engine
// of the browsers' own tools), names that tell nodes apart, colours that
// mean health, a chart that reads with 1 to 3,600 samples, the refresh
// at the collection interval, and a group with a 4 MB error drawn in
// under a second.

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/list"
	"github.com/kstreams-groups/kstreams-groups/internal/overview"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

// drawn waits until the page has drawn the route it shows.
const drawn = `document.getElementById('app').dataset.drawn === location.hash`

// go navigates to a route of the page (a fragment) and waits until it
// is drawn.
func (b *tab) goTo(t testing.TB, base, route string) {
	t.Helper()
	b.run(t, chromedp.Navigate(base+"/"+route))
	b.waitFor(t, drawn)
}

// overflows lists every label outside its box: an HTML element whose
// content is wider than it while its overflow is visible, a text left of
// or right of the window (outside any scroll box), and an SVG text of a
// node or a sub-topology outside its rectangle (measured in its own
// coordinates: the zoom does not matter, and names hidden when zoomed
// out are shown for the measure).
const overflows = `(() => {
  const bad = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\s+/).join('.') : '');
  const root = document.documentElement;
  if (root.scrollWidth > innerWidth + 1) bad.push('the page scrolls sideways: ' + root.scrollWidth + ' > ' + innerWidth);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'inline' || cs.display === 'none' || cs.display === 'contents' || el.clientWidth === 0) continue;
    if (cs.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1)
      bad.push(name(el) + ': content ' + el.scrollWidth + ' px wide in a box of ' + el.clientWidth + ' (' + el.textContent.slice(0, 60) + ')');
    // No table scrolls sideways at any width: a column would be out of sight.
    if (el.matches('.table-wrap') && el.scrollWidth > el.clientWidth + 1)
      bad.push(name(el.querySelector('table') || el) + ' scrolls sideways: ' + el.scrollWidth + ' px in ' + el.clientWidth);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('svg, noscript, title')) continue;
    let clip = n.parentElement;
    while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    if (clip && clip !== document.body && clip !== root) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > innerWidth + 1)) bad.push(name(n.parentElement) + ': text from ' + Math.round(r.left) + ' to ' + Math.round(r.right) + ' px (' + n.textContent.slice(0, 60) + ')');
  }
  const svg = document.querySelector('svg.topo');
  if (svg) {
    const classes = ['far', 'farther', 'zooming'].filter(c => svg.classList.contains(c));
    svg.classList.remove(...classes);
    for (const g of svg.querySelectorAll('g.node, g.sub')) {
      if (g.style.display === 'none') continue;
      const box = g.querySelector(':scope > rect').getBBox();
      for (const tx of g.querySelectorAll(':scope > text')) {
        const r = tx.getBBox();
        if (!r.width) continue;
        if (r.x < box.x - 0.5 || r.x + r.width > box.x + box.width + 0.5 || r.y < box.y - 0.5 || r.y + r.height > box.y + box.height + 0.5)
          bad.push(name(g) + ' ' + name(tx) + ': ' + JSON.stringify(tx.textContent.slice(0, 60)) + ' spans x ' + r.x.toFixed(1) + '..' + (r.x + r.width).toFixed(1) + ' of a box 0..' + box.width);
      }
    }
    svg.classList.add(...classes);
  }
  return bad;
})()`

// misaligned lists the summary's labels whose value is not right under
// them.
const misaligned = `[...document.querySelectorAll('.facts dt')].flatMap(dt => {
  const dd = dt.nextElementSibling, a = dt.getBoundingClientRect(), b = dd ? dd.getBoundingClientRect() : null;
  if (!b) return [dt.textContent + ': no value'];
  if (Math.abs(a.left - b.left) > 1 || b.top < a.bottom - 1 || b.top - a.bottom > 8)
    return [dt.textContent + ' at (' + Math.round(a.left) + ', ' + Math.round(a.top) + '), its value ' + JSON.stringify(dd.textContent) + ' at (' + Math.round(b.left) + ', ' + Math.round(b.top) + ')'];
  return [];
})`

// consoleFixture is the playground with its hostile group, and a cluster
// "staging" of made groups: one whose describe failed with a 4 MB
// message, one of long generated names, and groups with 1, 2 and 3,600
// samples of history, checked with lag conditions.
func consoleFixture(t testing.TB) (*snapshot.Cluster, *snapshot.Cluster) {
	t.Helper()
	pg := startPlayground(t)
	c := collect(t, "default", pg)
	return c, stagingCluster()
}

// hugeError is a broker message of 4 million characters, escapes and
// markup included (JSON writes them longer still).
var hugeError = strings.Repeat(`<b>"quoted" & \ tabbed	line
`, 4_000_000/27)

func stagingCluster() *snapshot.Cluster {
	lagWarn, lagCrit := int64(2000), int64(5000)
	opts := checkOptions()
	opts.LagWarning, opts.LagCritical = &lagWarn, &lagCrit
	ck := &check.Result{Status: check.OK, Options: opts}
	ls := &list.Result{WithState: true}
	add := func(g *overview.Group) *check.Group {
		cg := check.Evaluate(g, opts)
		ck.Groups = append(ck.Groups, cg)
		ck.Status = check.Worst(ck.Status, cg.Status)
		ls.Groups = append(ls.Groups, list.Group{Group: g.Group, State: g.State})
		return cg
	}
	add(&overview.Group{Group: "broken", Err: errors.New(hugeError)})
	names := topologytest.Desc([]*topology.Subtopology{topologytest.Sub("0",
		topologytest.Src("KSTREAM-SOURCE-0000000000", []string{"orders-with-a-rather-long-topic-name-for-the-europe-west-region"}, "KSTREAM-FLATMAPVALUES-0000000012"),
		topologytest.Proc("KSTREAM-FLATMAPVALUES-0000000012", nil, "KSTREAM-FLATMAPVALUES-0000000013"),
		topologytest.Proc("KSTREAM-FLATMAPVALUES-0000000013", []string{"KSTREAM-AGGREGATE-STATE-STORE-0000000014"}, "com.example.orders.enrichment.CustomerAddressNormalizer-west"),
		topologytest.Proc("com.example.orders.enrichment.CustomerAddressNormalizer-west", nil, "com.example.orders.enrichment.CustomerAddressNormalizer-east"),
		topologytest.Proc("com.example.orders.enrichment.CustomerAddressNormalizer-east", nil, "KSTREAM-SINK-0000000016"),
		topologytest.Sink("KSTREAM-SINK-0000000016", "orders-enriched-with-customer-addresses-and-a-long-name"))})
	add(syntheticGroup("long-names-of-a-team-that-names-its-applications-after-the-whole-org-chart", names, 100))
	add(syntheticGroup(strings.Repeat("NoSeparatorAtAll", 8), topologytest.Generated(1, 1, "out"), 10))
	ok := add(syntheticGroup("lag-within-conditions", topologytest.Generated(3, 1, "out"), 90))
	over := add(syntheticGroup("lag-over-conditions", topologytest.Generated(3, 1, "out"), 900))
	hist := map[string][]snapshot.Sample{}
	for _, n := range []int{1, 2, 3600} {
		g := add(syntheticGroup(fmt.Sprintf("history-%d", n), topologytest.Generated(2, 1, "out"), 50))
		for i := range n {
			hist[g.ID()] = append(hist[g.ID()], snapshot.Sample{Time: now.Add(time.Duration(i-n+1) * time.Second), Lag: int64(i % 97), TimeLagSeconds: float64(i % 13), HasTimeLag: true})
		}
	}
	_, _ = ok, over
	return &snapshot.Cluster{Name: "staging", Taken: now, LastSuccess: now, Check: ck, List: ls, History: hist, Events: map[string][]snapshot.Event{}}
}

// axeSource is axe-core's script, installed by make axe (.ci/run).
func axeSource(t testing.TB) string {
	t.Helper()
	path := filepath.Join("..", "..", "..", "tools", "axe", "node_modules", "axe-core", "axe.min.js")
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is not installed (%v): .ci/run runs make axe", err)
		}
		t.Skipf("axe-core is not installed (%v): run make axe", err)
	}
	return string(b)
}

// axeFindings runs axe-core on the page and gives its serious and
// critical findings, each with the elements concerned.
func axeFindings(t testing.TB, b *tab, src string) []string {
	t.Helper()
	if !eval[bool](t, b, `typeof window.axe === 'object'`) {
		b.do(t, src)
	}
	return eval[[]string](t, b, `axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
		.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => v.id + ' (' + v.impact + '): ' + v.help + ': ' + v.nodes.slice(0, 6).map(n => n.target.join(' ') + ' [' + (n.failureSummary || '').replace(/\s+/g, ' ') + ']').join('; ')))`)
}

func TestBrowserLayout(t *testing.T) {
	b := newTab(t, 1280, 900)
	c, staging := consoleFixture(t)
	srv := httptest.NewServer(web.Handler(newSource(c, staging), web.WithRefresh(time.Hour)))
	defer srv.Close()
	pages := []string{"#/"}
	for _, g := range []string{"word-count", "inventory", "billing", "page-views", "clicks"} {
		pages = append(pages, "#/c/default/g/"+g)
	}
	pages = append(pages, "#/c/default/g/"+escapeFragment(hostile))
	for _, g := range staging.Check.Groups {
		pages = append(pages, "#/c/staging/g/"+g.ID())
	}
	for _, width := range []int{1024, 1280, 1920, 2560} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b.run(t, chromedp.EmulateViewport(int64(width), 900))
			for _, p := range pages {
				b.goTo(t, srv.URL, p)
				assert.Empty(t, eval[[]string](t, b, overflows), "labels outside their box at %d px on %s", width, p)
				assert.Empty(t, eval[[]string](t, b, misaligned), "summary misaligned at %d px on %s", width, p)
			}
		})
	}
	b.noViolations(t)
}

// escapeFragment is the route's encoding of a name (encodeURIComponent).
func escapeFragment(s string) string {
	var out strings.Builder
	for _, r := range []byte(s) {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.IndexByte("-_.!~*'()", r) >= 0 {
			out.WriteByte(r)
		} else {
			fmt.Fprintf(&out, "%%%02X", r)
		}
	}
	return out.String()
}

func TestBrowserAccessibility(t *testing.T) {
	src := axeSource(t)
	b := newTab(t, 1280, 900)
	c, staging := consoleFixture(t)
	srv := httptest.NewServer(web.Handler(newSource(c, staging), web.WithRefresh(time.Hour)))
	defer srv.Close()

	for _, p := range []string{"#/", "#/c/default/g/word-count", "#/c/default/g/" + escapeFragment(hostile), "#/c/default/g/billing", "#/c/staging/g/broken", "#/c/staging/g/history-2"} {
		b.goTo(t, srv.URL, p)
		assert.Empty(t, axeFindings(t, b, src), "axe-core on %s", p)
	}

	t.Run("no live region is rebuilt at each refresh", func(t *testing.T) {
		live := eval[[]string](t, b, `[...document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]')].filter(el => el.id !== 'banner').map(el => el.outerHTML.slice(0, 80))`)
		assert.Empty(t, live)
	})

	t.Run("sortable headers are buttons", func(t *testing.T) {
		b.goTo(t, srv.URL, "#/")
		got := eval[[]string](t, b, `[...document.querySelectorAll('#groups th')].map(th => th.querySelector('button') ? 'button' : th.textContent)`)
		require.NotEmpty(t, got)
		for _, g := range got {
			assert.Equal(t, "button", g)
		}
	})

	t.Run("keyboard: to a group, through the graph, Enter opens the panel", func(t *testing.T) {
		b.goTo(t, srv.URL, "#/")
		// Tab until the link of word-count has the focus, then Enter.
		for range 60 {
			if eval[string](t, b, `document.activeElement.textContent`) == "word-count" {
				break
			}
			b.run(t, chromedp.KeyEvent("\t"))
		}
		require.Equal(t, "word-count", eval[string](t, b, `document.activeElement.textContent`))
		b.run(t, chromedp.KeyEvent("\r"))
		b.waitFor(t, `location.hash === '#/c/default/g/word-count' && `+drawn)
		// The focus moved to the new page's heading.
		assert.Equal(t, "H1", eval[string](t, b, `document.activeElement.tagName`))
		assert.Equal(t, "word-count", eval[string](t, b, `document.activeElement.textContent`))
		// Tab reaches a node of the graph; Enter opens its panel.
		for range 80 {
			if eval[bool](t, b, `!!document.activeElement.closest('svg.topo .node')`) {
				break
			}
			b.run(t, chromedp.KeyEvent("\t"))
		}
		require.True(t, eval[bool](t, b, `!!document.activeElement.closest('svg.topo .node')`), "no node of the graph took the focus")
		name := eval[string](t, b, `document.activeElement.querySelector('title').textContent.split('\n')[0]`)
		b.run(t, chromedp.KeyEvent("\r"))
		b.waitFor(t, `document.querySelector('#node-panel h3')`)
		full := eval[string](t, b, `document.activeElement.closest('svg.topo .node').classList[1] + ' ' + document.querySelector('#node-panel h3').textContent`)
		assert.Equal(t, name, full, "the node's name, the panel's")
	})

	t.Run("the chart has a text alternative", func(t *testing.T) {
		b.goTo(t, srv.URL, "#/c/staging/g/history-2")
		got := eval[string](t, b, `document.getElementById(document.querySelector('svg.chart').getAttribute('aria-describedby')).textContent`)
		assert.Contains(t, got, "2 samples from")
		assert.Contains(t, got, "lag ")
	})
	b.noViolations(t)
}

// TestBrowserReadable: names tell nodes apart, colours mean health, the
// chart reads with 1, 2 and 3,600 samples, and why a group is ERROR or
// NOT_STORED is said with doctor's command.
func TestBrowserReadable(t *testing.T) {
	b := newTab(t, 1280, 900)
	c, staging := consoleFixture(t)
	srv := httptest.NewServer(web.Handler(newSource(c, staging), web.WithRefresh(time.Hour)))
	defer srv.Close()

	t.Run("names keep their distinguishing end, whole on hover and in the panel", func(t *testing.T) {
		b.goTo(t, srv.URL, "#/c/staging/g/long-names-of-a-team-that-names-its-applications-after-the-whole-org-chart")
		got := eval[[]struct{ Label, Title string }](t, b, `[...document.querySelectorAll('svg.topo .node')].map(n => ({label: n.querySelector('.name').textContent, title: n.querySelector('title').textContent.split('\n')[0]}))`)
		require.Len(t, got, 6)
		labels := map[string]bool{}
		for _, n := range got {
			full := n.Title[strings.IndexByte(n.Title, ' ')+1:]
			assert.False(t, labels[n.Label], "two nodes show %q", n.Label)
			labels[n.Label] = true
			if strings.Contains(n.Label, "…") {
				tail := full[strings.LastIndexAny(full, "-")+1:]
				assert.True(t, strings.HasSuffix(n.Label, tail), "%q cut from %q loses its end %q", n.Label, full, tail)
			} else {
				assert.Equal(t, full, n.Label)
			}
		}
		b.do(t, `[...document.querySelectorAll('svg.topo .node')].find(n => n.querySelector('title').textContent.includes('CustomerAddressNormalizer-east')).dispatchEvent(new MouseEvent('click', {bubbles: true}))`)
		b.waitFor(t, `document.querySelector('#node-panel h3')`)
		assert.Equal(t, "com.example.orders.enrichment.CustomerAddressNormalizer-east", eval[string](t, b, `document.querySelector('#node-panel h3').textContent`))
	})

	t.Run("colour is health by the check's conditions, the share a figure", func(t *testing.T) {
		for group, want := range map[string]string{"lag-within-conditions": "OK", "lag-over-conditions": "CRITICAL"} {
			b.goTo(t, srv.URL, "#/c/staging/g/"+group)
			got := eval[struct {
				Status string
				Health []string
				Lags   []string
			}](t, b, `({status: document.querySelector('.group-head .badges').textContent,
				health: [...document.querySelectorAll('svg.topo .sub')].map(g => [...g.classList].find(c => c.startsWith('health-'))),
				lags: [...document.querySelectorAll('svg.topo .sub-lag')].map(x => x.textContent)})`)
			assert.Contains(t, got.Status, want, group)
			for i, h := range got.Health {
				if want == "OK" {
					assert.Equal(t, "health-ok", h, "%s: a box of a group within its conditions", group)
				}
				assert.Regexp(t, `^lag [0-9,]+ · [0-9]+% of the group's`, got.Lags[i], group)
			}
			if want != "OK" {
				// The group is CRITICAL by its total lag (5,400 > 5,000); its
				// boxes by their own (2,700 > 2,000 is a WARNING).
				assert.Equal(t, []string{"health-ok", "health-ok", "health-warn"}, got.Health, group)
			}
		}
		assert.Contains(t, eval[string](t, b, `document.querySelector('.health-legend').textContent`), "health by the check's lag conditions")
		assert.Contains(t, eval[string](t, b, `document.querySelector('.health-legend').textContent`), "share of the group's lag")
	})

	t.Run("the chart's time labels never repeat", func(t *testing.T) {
		for _, n := range []int{1, 2, 3600} {
			b.goTo(t, srv.URL, fmt.Sprintf("#/c/staging/g/history-%d", n))
			labels := eval[[]string](t, b, `[...document.querySelectorAll('svg.chart .axis.time')].map(x => x.textContent)`)
			assert.GreaterOrEqual(t, len(labels), 2, "%d samples: %q", n, labels)
			seen := map[string]bool{}
			for _, l := range labels {
				assert.False(t, seen[l], "%d samples: %q repeats in %q", n, l, labels)
				seen[l] = true
			}
			overlap := eval[bool](t, b, `(() => { const r = [...document.querySelectorAll('svg.chart .axis.time')].map(x => x.getBBox()); return r.some((a, i) => i && a.x < r[i-1].x + r[i-1].width + 4); })()`)
			assert.False(t, overlap, "%d samples: time labels overlap", n)
		}
	})

	t.Run("why ERROR or NOT_STORED, with doctor's command; each page's command", func(t *testing.T) {
		for group, want := range map[string]string{"billing": "ERROR", "inventory": "NOT_STORED"} {
			b.goTo(t, srv.URL, "#/c/default/g/"+group)
			why := eval[string](t, b, `document.querySelector('.why').textContent`)
			assert.Contains(t, why, want)
			assert.Contains(t, why, "kstreams-groups doctor --group "+group)
			assert.Contains(t, eval[string](t, b, `document.querySelector('.cli').textContent`), "kstreams-groups overview --group "+group)
		}
		b.goTo(t, srv.URL, "#/c/staging/g/broken")
		why := eval[string](t, b, `document.querySelector('.why').textContent`)
		assert.Contains(t, why, "The group could not be read")
		assert.Contains(t, why, "kstreams-groups doctor --group broken --profile staging")
		b.goTo(t, srv.URL, "#/c/default/g/"+escapeFragment(hostile))
		assert.Contains(t, eval[string](t, b, `document.querySelector('.cli code').textContent`), "kstreams-groups overview --group 'x\"><img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=1</script>'\\''onmouseover='\\''window.__pwned=1'")
		b.goTo(t, srv.URL, "#/")
		assert.Contains(t, eval[string](t, b, `document.querySelector('.cli').textContent`), "kstreams-groups check --all-groups")
	})
	b.noViolations(t)
}

// TestBrowserRefreshIsTheInterval: the page asks for its documents once
// per refresh_ms (the collection interval), neither more nor less often.
func TestBrowserRefreshIsTheInterval(t *testing.T) {
	b := newTab(t, 1280, 900)
	src := newSource(syntheticCluster("prod", 3))
	for _, interval := range []time.Duration{time.Second, 2 * time.Second} {
		var mu sync.Mutex
		var asked []time.Time
		h := web.Handler(src, web.WithRefresh(interval))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/groups" {
				mu.Lock()
				asked = append(asked, time.Now())
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		}))
		b.goTo(t, srv.URL, "#/c/prod/g/app-001")
		assert.Equal(t, fmt.Sprint(interval.Milliseconds()), eval[string](t, b, `document.getElementById('updated').getAttribute('data-refresh-ms')`))
		// Four gaps between the page's reads are enough to judge it.
		require.Eventually(t, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(asked) >= 5
		}, 30*interval, interval/10)
		b.run(t, chromedp.Navigate("about:blank"))
		srv.Close()
		mu.Lock()
		var gaps []time.Duration
		for i := 1; i < len(asked); i++ {
			gaps = append(gaps, asked[i].Sub(asked[i-1]))
		}
		mu.Unlock()
		require.GreaterOrEqual(t, len(gaps), 3, "asked %d times in %v at an interval of %v", len(gaps)+1, 5*interval, interval)
		slices.Sort(gaps)
		median := gaps[len(gaps)/2]
		// Generous bounds: a loaded machine delays timers, never hastens
		// them, but a request sent late shortens the gap to the next.
		assert.GreaterOrEqual(t, gaps[0], interval*7/10, "asked sooner than the interval %v: %v", interval, gaps)
		assert.LessOrEqual(t, median, interval*3/2, "asked later than the interval %v: %v", interval, gaps)
	}
	b.noViolations(t)
}

// TestBrowserHugeError: a group whose error is 4 million characters (8 MB
// of JSON) is drawn, in the list and on its page, in under a second
// after its document arrives, and the page holds a bounded text.
func TestBrowserHugeError(t *testing.T) {
	b := newTab(t, 1280, 900)
	srv := httptest.NewServer(web.Handler(newSource(stagingCluster()), web.WithRefresh(time.Hour)))
	defer srv.Close()
	for _, p := range []struct{ route, doc string }{{"#/", "/api/v1/groups"}, {"#/c/staging/g/broken", "/api/v1/clusters/staging/groups/broken"}} {
		b.goTo(t, srv.URL, p.route)
		// From the end of the document's answer to the page's mark of the
		// first frame painted after its drawing.
		fetched := `performance.getEntriesByType('resource').filter(e => e.name.endsWith(` + jsString(p.doc) + `)).pop().responseEnd`
		b.waitFor(t, `performance.getEntriesByName('painted').length && performance.getEntriesByName('painted')[0].startTime > `+fetched)
		got := eval[struct {
			Fetched, Parsed, Drawn float64
			Text                   int
		}](t, b, `({fetched: `+fetched+`, parsed: performance.getEntriesByName('parsed')[0].startTime,
			drawn: performance.getEntriesByName('painted')[0].startTime, text: document.body.innerText.length})`)
		t.Logf("%s: the document arrived at %.0f ms, was parsed %.0f ms later, drawn and painted %.0f ms after that; %d characters of text",
			p.route, got.Fetched, got.Parsed-got.Fetched, got.Drawn-got.Parsed, got.Text)
		// The page's part: from the documents read to the frame painted
		// (reading 8 to 16 MB of JSON is the API's part, which serve
		// bounds).
		assert.Less(t, got.Drawn-got.Parsed, 1000.0, "%s: drawn %.0f ms after its documents were read", p.route, got.Drawn-got.Parsed)
		assert.Less(t, got.Text, 20_000, p.route)
		assert.Contains(t, eval[string](t, b, `document.body.innerText`), "more characters", p.route)
	}
	b.noViolations(t)
}
