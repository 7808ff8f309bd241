package web_test

// The page in a real browser: Debian's headless Chromium, driven over the
// DevTools protocol by chromedp. Without chromium the tests skip, except
// under CI (CI set), where .ci/run installs it and its absence fails.
// `make screenshots` (-screenshots) writes docs/img/console-*.png.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/check"
	"github.com/kstreams-groups/kstreams-groups/internal/playground"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/snapshot"
	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
	"github.com/kstreams-groups/kstreams-groups/internal/topology"
	"github.com/kstreams-groups/kstreams-groups/internal/topology/topologytest"
)

var screenshots = flag.Bool("screenshots", false, "write the console's screenshots to docs/img/")

// chromium is the browser's path; it skips the test when there is none
// and CI is unset.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium is not installed (Debian: apt-get install chromium)")
	return ""
}

// tab is one browser tab and what its page reported: console messages,
// uncaught exceptions, and the browser's own log (where a Content
// Security Policy violation is reported).
type tab struct {
	ctx  context.Context
	mu   sync.Mutex
	logs []string
}

func (b *tab) messages() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.logs)
}

func (b *tab) reset() {
	b.mu.Lock()
	b.logs = nil
	b.mu.Unlock()
}

// newTab starts a headless Chromium (one per test) at width×height.
func newTab(t testing.TB, width, height int) *tab {
	t.Helper()
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.WindowSize(width, height),
		chromedp.Flag("disable-gpu", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-device-scale-factor", "1"), chromedp.Flag("lang", "en-GB"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &tab{ctx: ctx}
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		var line string
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			line = "console." + string(e.Type) + ": " + strings.Join(args, " ")
		case *runtime.EventExceptionThrown:
			line = "exception: " + e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				line += " " + e.ExceptionDetails.Exception.Description
			}
		case *log.EventEntryAdded:
			line = "log." + string(e.Entry.Level) + " (" + string(e.Entry.Source) + "): " + e.Entry.Text
		default:
			return
		}
		b.mu.Lock()
		b.logs = append(b.logs, line)
		b.mu.Unlock()
	}))
	// The listener of policy violations is installed by the browser
	// before any script of the page runs (not an inline script: the
	// policy would refuse one).
	b.run(t, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));`})
		return err
	}))
	return b
}

func (b *tab) run(t testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, actions...), "browser messages: %q", b.messages())
}

// eval evaluates a JavaScript expression (awaiting a promise) into T.
func eval[T any](t testing.TB, b *tab, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "%s; browser messages: %q", expr, b.messages())
	return v
}

// do evaluates a JavaScript statement for its effect.
func (b *tab) do(t testing.TB, expr string) {
	t.Helper()
	eval[*runtime.RemoteObject](t, b, expr)
}

// waitFor polls a JavaScript condition until it holds.
func (b *tab) waitFor(t testing.TB, cond string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !eval[bool](t, b, "!!("+cond+")") {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not hold within 20s; browser messages: %q", cond, b.messages())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// noViolations asserts that the page met no policy violation, exception
// or error.
func (b *tab) noViolations(t testing.TB) {
	t.Helper()
	csp := eval[[]string](t, b, "window.__csp")
	assert.Empty(t, csp, "Content-Security-Policy violations")
	for _, m := range b.messages() {
		assert.NotContains(t, m, "Content Security Policy")
		assert.False(t, strings.HasPrefix(m, "exception") || strings.HasPrefix(m, "console.error") || strings.HasPrefix(m, "log.error"), "%s", m)
	}
}

// withoutPolicy serves h without its Content-Security-Policy, to show
// that no name gets into markup by the page's own doing, not only that
// the policy stops what would.
func withoutPolicy(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(dropPolicy{w}, r)
	})
}

type dropPolicy struct{ http.ResponseWriter }

func (d dropPolicy) WriteHeader(code int) {
	d.Header().Del("Content-Security-Policy")
	d.ResponseWriter.WriteHeader(code)
}

func (d dropPolicy) Write(b []byte) (int, error) {
	d.Header().Del("Content-Security-Policy")
	return d.ResponseWriter.Write(b)
}

const rows = `document.querySelectorAll('#groups tbody tr td.group a')`

func TestBrowser(t *testing.T) {
	b := newTab(t, 1400, 1000)
	pg := startPlayground(t)
	c := collect(t, "default", pg)
	src := newSource(c)
	srv := httptest.NewServer(web.Handler(src, web.WithRefresh(250*time.Millisecond)))
	defer srv.Close()

	t.Run("the list shows the playground's groups", func(t *testing.T) {
		b.reset()
		b.run(t, chromedp.Navigate(srv.URL+"/"))
		b.waitFor(t, rows+".length >= "+fmt.Sprint(len(c.List.Groups)))
		names := eval[[]string](t, b, "[..."+rows+"].map(a => a.textContent)")
		var want []string
		for _, g := range c.List.Groups {
			want = append(want, g.Group)
		}
		assert.ElementsMatch(t, want, names)
		assert.Subset(t, names, []string{"word-count", "inventory", "page-views", hostile})

		// Filtering and sorting.
		b.run(t, chromedp.SendKeys(chromedp.CSS("#filter"), "page-"))
		b.waitFor(t, rows+".length === 1")
		names = eval[[]string](t, b, "[..."+rows+"].map(a => a.textContent)")
		assert.Equal(t, []string{"page-views"}, names)
		b.do(t, `(f => { f.value = ''; f.dispatchEvent(new Event('input')); })(document.getElementById('filter'))`)
		b.run(t, chromedp.Click(chromedp.CSS(`th[data-key="lag"]`)))
		b.waitFor(t, `document.querySelector('th[data-key="lag"]').getAttribute('aria-sort') === 'descending'`)
		lags := eval[[]string](t, b, `[...document.querySelectorAll('#groups tbody tr td:nth-child(5)')].map(td => td.textContent)`)
		require.NotEmpty(t, lags)
		var most int64
		for _, g := range c.Check.Groups {
			most = max(most, g.Lag)
		}
		assert.Equal(t, fmt.Sprint(most), strings.ReplaceAll(lags[0], ",", ""))
		b.noViolations(t)
	})

	t.Run("a group page draws its topology and tasks", func(t *testing.T) {
		b.reset()
		b.run(t, chromedp.Navigate(srv.URL+"/#/c/default/g/word-count"))
		b.waitFor(t, `document.querySelectorAll('svg.topo .node').length > 0`)
		var wc *check.Group
		for _, g := range c.Check.Groups {
			if g.ID() == "word-count" {
				wc = g
			}
		}
		require.NotNil(t, wc)
		nodes, tasks := 0, 0
		for _, st := range wc.Overview.Subtopologies {
			nodes += len(st.Nodes)
			tasks += len(st.Tasks)
		}
		got := eval[struct {
			Nodes, Tasks, Subs, Globals int
			Names                       []string
			State                       string
		}](t, b, `({nodes: document.querySelectorAll('svg.topo .node').length,
			tasks: document.querySelectorAll('table.tasks tbody tr').length,
			subs: document.querySelectorAll('svg.topo .sub:not(.global)').length,
			globals: document.querySelectorAll('svg.topo .sub.global').length,
			names: [...document.querySelectorAll('svg.topo .node title')].map(t => t.textContent.split('\n')[0]),
			state: document.getElementById('group-state').textContent})`)
		assert.Equal(t, nodes, got.Nodes)
		assert.Equal(t, tasks, got.Tasks)
		assert.Equal(t, len(wc.Overview.Subtopologies), got.Subs)
		assert.Equal(t, len(wc.Overview.GlobalStores), got.Globals)
		assert.Contains(t, got.Names, "processor KSTREAM-AGGREGATE-0000000003")
		assert.Equal(t, "Stable", got.State)

		// A rebalance read back from the history lists its causes, as text.
		b.waitFor(t, `document.querySelectorAll('.events .causes li').length === 2`)
		causes := eval[[]string](t, b, `[...document.querySelectorAll('.events .causes li')].map(li => li.textContent)`)
		assert.Equal(t, []string{"member-joined m-b: process p-b, host /10.0.0.2, client c-b", "configs-changed num.standby.replicas 0 -> 1 <img src=x onerror=window.__pwned=1>"}, causes)
		assert.Zero(t, eval[int](t, b, `document.querySelectorAll('.events img').length`))

		// A node's stores, topics and tasks on click.
		b.run(t, chromedp.Click(chromedp.CSS(`svg.topo .node.processor`)))
		b.waitFor(t, `document.querySelector('#node-panel h3')`)
		panel := eval[string](t, b, `document.getElementById('node-panel').textContent`)
		assert.Contains(t, panel, "Tasks of sub-topology")
		b.noViolations(t)
	})

	t.Run("a hostile name shows as text and runs nothing", func(t *testing.T) {
		for _, policy := range []bool{true, false} {
			h := web.Handler(src, web.WithRefresh(250*time.Millisecond))
			if !policy {
				h = withoutPolicy(h)
			}
			var asked atomic.Int64 // the page's reads of the API: its refreshes
			counted := h
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/v1/groups" {
					asked.Add(1)
				}
				counted.ServeHTTP(w, r)
			}))
			b.reset()
			b.run(t, chromedp.Navigate(s.URL+"/"))
			b.waitFor(t, rows+".length >= "+fmt.Sprint(len(c.List.Groups)))
			b.do(t, "[..."+rows+"].find(a => a.textContent === "+jsString(hostile)+").click()")
			b.waitFor(t, `document.querySelectorAll('svg.topo .node').length === 3`)
			b.waitFor(t, `document.querySelector('table.members tbody tr')`)
			// Open the panel of every node: their names, topics and stores.
			for i := 1; i <= 3; i++ {
				b.do(t, fmt.Sprintf(`document.querySelectorAll('svg.topo .node')[%d].dispatchEvent(new MouseEvent('click', {bubbles: true}))`, i-1))
			}
			// Two refreshes redraw the page with the panels open: the
			// third read starts once the second one's answer is drawn.
			before := asked.Load()
			require.Eventually(t, func() bool { return asked.Load() >= before+3 }, 30*time.Second, 20*time.Millisecond)
			got := eval[struct {
				Pwned    bool
				Injected int
				Title    string
				Text     string
			}](t, b, `({pwned: window.__pwned === 1,
				injected: document.querySelectorAll('body img, body script, body iframe, [onerror], [onload], [onclick], [onmouseover], svg.topo foreignObject').length,
				title: document.querySelector('.group-head h1').textContent,
				text: document.body.innerText})`)
			assert.False(t, got.Pwned, "the payload ran (policy %v)", policy)
			assert.Zero(t, got.Injected, "elements made from a name (policy %v)", policy)
			assert.Equal(t, hostile, got.Title)
			assert.Contains(t, got.Text, hostile)
			assert.Contains(t, got.Text, `"><script>window.__pwned=1</script>`) // the store, in the panel
			assert.Contains(t, got.Text, "<b onclick=window.__pwned=1>client</b>")
			if policy {
				b.noViolations(t)
			}
			// Away from the page before its server goes: a refresh then
			// refused would be logged into the next subtest.
			b.run(t, chromedp.Navigate("about:blank"))
			s.Close()
		}
	})

	t.Run("the page follows a change without a reload", func(t *testing.T) {
		b.reset()
		src.set(c)
		b.run(t, chromedp.Navigate(srv.URL+"/#/c/default/g/word-count"))
		b.waitFor(t, `document.getElementById('group-state') && document.getElementById('group-state').textContent === 'Stable'`)
		b.do(t, `window.__same = 'page'`)
		src.set(withState(c, "word-count", "Reconciling"))
		b.waitFor(t, `document.getElementById('group-state').textContent === 'Reconciling'`)
		same := eval[string](t, b, `window.__same`)
		assert.Equal(t, "page", same, "the page was reloaded")
		status := eval[string](t, b, `document.querySelector('.group-head .badges').textContent`)
		assert.Contains(t, status, "WARNING")

		// The list follows too, and so does the cluster going stale.
		b.run(t, chromedp.Click(chromedp.CSS(`nav.crumbs a`)))
		b.waitFor(t, rows+".length > 0")
		stale := *withState(c, "word-count", "Empty")
		stale.Stale, stale.Error = true, "no broker answered within 30s"
		src.set(&stale)
		b.waitFor(t, `[...document.querySelectorAll('#groups tbody tr')].some(tr => tr.textContent.includes('word-count') && tr.textContent.includes('Empty'))`)
		b.waitFor(t, `document.getElementById('clusters').textContent.includes('stale')`)
		same = eval[string](t, b, `window.__same`)
		assert.Equal(t, "page", same, "the page was reloaded")
		b.noViolations(t)
		src.set(c)
	})

	t.Run("the server gone, the page keeps the last data", func(t *testing.T) {
		b.run(t, chromedp.Navigate(srv.URL+"/"))
		b.waitFor(t, rows+".length > 0")
		srv.Close()
		b.waitFor(t, `!document.getElementById('banner').hidden && document.getElementById('banner').textContent.includes('Could not update')`)
		assert.Equal(t, len(c.List.Groups), eval[int](t, b, rows+".length"))
	})
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserMeasure reports, never asserts, how fast the page is: the
// list's first paint with 100 groups, and a 10,000-node topology drawn
// closed, opened, and panned and zoomed.
func TestBrowserMeasure(t *testing.T) {
	b := newTab(t, 1400, 1000)
	c := syntheticCluster("prod", 100)
	big := check.Evaluate(syntheticGroup("big-10k", topologytest.Large(10000), 5000), c.Check.Options)
	one := &topology.Description{Subtopologies: []*topology.Subtopology{{ID: "0"}}}
	for _, st := range topologytest.Large(10000).Subtopologies {
		one.Subtopologies[0].Nodes = append(one.Subtopologies[0].Nodes, st.Nodes...)
	}
	wide := check.Evaluate(syntheticGroup("one-sub-10k", one, 5000), c.Check.Options)
	c.Check.Groups = append(c.Check.Groups, big, wide)
	srv := httptest.NewServer(web.Handler(newSource(c), web.WithRefresh(time.Hour)))
	defer srv.Close()

	b.run(t, chromedp.Navigate(srv.URL+"/"))
	b.waitFor(t, `performance.getEntriesByName('list-painted').length`)
	list := eval[struct{ Drawn, Painted, FCP float64 }](t, b, `({drawn: performance.getEntriesByName('list-drawn')[0].startTime, painted: performance.getEntriesByName('list-painted')[0].startTime,
		fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1}).startTime})`)
	t.Logf("list of %d groups: drawn %.0f ms, painted %.0f ms after navigation (first contentful paint %.0f ms)", len(c.Check.Groups), list.Drawn, list.Painted, list.FCP)

	for _, g := range []string{"big-10k", "one-sub-10k"} {
		b.run(t, chromedp.Navigate(srv.URL+"/#/c/prod/g/"+g), chromedp.Reload())
		b.waitFor(t, `document.querySelectorAll('svg.topo .sub').length > 0`)
		m := measureGraph(t, b)
		t.Logf("%s closed: drawn in %.0f ms; %d elements; pan %.1f ms/frame, zoom %.1f ms/frame", g, m.Draw, m.Elements, m.Pan, m.Zoom)
		draws := eval[int](t, b, `performance.getEntriesByName('topology-draw').length`)
		b.run(t, chromedp.Click(`//button[text()="Open all"]`))
		b.waitFor(t, fmt.Sprintf(`performance.getEntriesByName('topology-draw').length > %d`, draws))
		m = measureGraph(t, b)
		t.Logf("%s opened: drawn in %.0f ms; %d elements; pan %.1f ms/frame, zoom %.1f ms/frame", g, m.Draw, m.Elements, m.Pan, m.Zoom)
		// Zoomed in, where the nodes are drawn as they come into view.
		b.run(t, chromedp.Click(`//button[text()="Fit"]`))
		b.do(t, `(() => {
			const svg = document.querySelector('svg.topo'), r = svg.getBoundingClientRect();
			for (let i = 0; i < 200; i++) svg.dispatchEvent(new WheelEvent('wheel', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, deltaY: -100, bubbles: true, cancelable: true}));
		})()`)
		m = measureGraph(t, b)
		t.Logf("%s opened, zoomed in (%s): %d nodes drawn; pan %.1f ms/frame (drawing the nodes that come into view), zoom %.1f ms/frame, %.0f ms for the frame that shows the names again", g, m.Transform, m.Nodes, m.Pan, m.Zoom, m.Settle)
	}
	b.noViolations(t)
}

type graphFigures struct {
	Draw      float64
	Elements  int
	Nodes     int
	Transform string
	Pan, Zoom float64
	// Settle is the frame after a zoom, when the names come back.
	Settle float64
}

// measureGraph reads the last drawing's time and times 30 pan steps and
// 30 zoom steps, each to the next frame (16.7 ms at 60 Hz is the floor).
func measureGraph(t testing.TB, b *tab) graphFigures {
	t.Helper()
	return eval[graphFigures](t, b, `(async () => {
		const draws = performance.getEntriesByName('topology-draw');
		const svg = document.querySelector('svg.topo');
		const r = svg.getBoundingClientRect();
		const frame = () => new Promise(res => requestAnimationFrame(res));
		await frame();
		let t0 = performance.now();
		svg.dispatchEvent(new PointerEvent('pointerdown', {clientX: r.left + 300, clientY: r.top + 200, button: 0, bubbles: true}));
		for (let i = 1; i <= 30; i++) {
			svg.dispatchEvent(new PointerEvent('pointermove', {clientX: r.left + 300 + i * 8, clientY: r.top + 200 + i * 3, bubbles: true}));
			await frame();
		}
		svg.dispatchEvent(new PointerEvent('pointerup', {bubbles: true}));
		const pan = (performance.now() - t0) / 30;
		t0 = performance.now();
		for (let i = 1; i <= 30; i++) {
			svg.dispatchEvent(new WheelEvent('wheel', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, deltaY: i % 2 ? -60 : 40, bubbles: true, cancelable: true}));
			await frame();
		}
		const zoom = (performance.now() - t0) / 30;
		await new Promise(res => setTimeout(res, 250));
		t0 = performance.now();
		await frame();
		const settle = performance.now() - t0;
		return {draw: draws[draws.length - 1].duration, elements: svg.querySelectorAll('*').length, nodes: svg.querySelectorAll('.node').length,
			transform: svg.querySelector('.viewport').getAttribute('transform'), pan, zoom, settle};
	})()`)
}

// TestScreenshots writes docs/img/console-{list,group,error,large}-
// {1280,1920}.png from the playground and a generated group (make
// screenshots): the list, a group with a node selected, a group whose
// description is ERROR, and a topology of 20 sub-topologies, one opened.
func TestScreenshots(t *testing.T) {
	if !*screenshots {
		t.Skip("-screenshots writes docs/img/console-*.png (make screenshots)")
	}
	b := newTab(t, 1280, 900)
	pg := startState(t, playground.DefaultState())
	c := collect(t, "production", pg)
	c.Events["page-views"] = []snapshot.Event{
		{Time: now.Add(-42 * time.Minute), Text: "member m3 joined (process 7d2c…, client page-views-…-StreamThread-1-consumer)"},
		{Time: now.Add(-41 * time.Minute), Text: "group epoch 11 -> 12"},
		{Time: now.Add(-40 * time.Minute), Text: "state Stable -> Reconciling"},
		{Time: now.Add(-39 * time.Minute), Text: "task 1_3 moving: active m2 -> m3"},
	}
	staging := syntheticCluster("staging", 4)
	tree := check.Evaluate(syntheticGroup("clickstream-enrichment", subtopologyTree(20), 900), staging.Check.Options)
	staging.Check.Groups = append(staging.Check.Groups, tree)
	staging.History = map[string][]snapshot.Sample{}
	for i := range 60 {
		lag := 189000 - int64(i-40)*(int64(i-40))*90
		staging.History[tree.ID()] = append(staging.History[tree.ID()], snapshot.Sample{Time: now.Add(time.Duration(i-59) * time.Minute), Lag: lag, TimeLagSeconds: float64(lag) / 210, HasTimeLag: true})
	}
	src := newSource(c, staging)
	srv := httptest.NewServer(web.Handler(src, web.WithRefresh(30*time.Second)))
	defer srv.Close()
	dir := filepath.Join("..", "..", "..", "docs", "img")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	shot := func(name string) {
		b.run(t, chromedp.Sleep(300*time.Millisecond))
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
		t.Logf("wrote %s (%d bytes)", filepath.Join(dir, name), len(png))
	}
	for _, width := range []int64{1280, 1920} {
		b.run(t, chromedp.EmulateViewport(width, 900))
		b.goTo(t, srv.URL, "#/")
		shot(fmt.Sprintf("console-list-%d.png", width))
		b.goTo(t, srv.URL, "#/c/production/g/page-views")
		b.run(t, chromedp.Click(chromedp.CSS(`svg.topo .node.processor`)))
		shot(fmt.Sprintf("console-group-%d.png", width))
		b.goTo(t, srv.URL, "#/c/production/g/billing")
		shot(fmt.Sprintf("console-error-%d.png", width))
		b.goTo(t, srv.URL, "#/c/staging/g/clickstream-enrichment")
		b.do(t, `document.querySelectorAll('svg.topo .sub')[4].dispatchEvent(new MouseEvent('click', {bubbles: true}))`)
		b.waitFor(t, `document.querySelectorAll('svg.topo .node').length > 0`)
		shot(fmt.Sprintf("console-large-%d.png", width))
	}
	b.noViolations(t)
}

// subtopologyTree is a topology of n sub-topologies of four nodes each,
// sub-topology i reading the repartition topic of sub-topology (i-1)/2.
func subtopologyTree(n int) *topology.Description {
	var subs []*topology.Subtopology
	for i := range n {
		in := "clicks"
		if i > 0 {
			in = fmt.Sprintf("clickstream-enrichment-step-%d-repartition", (i-1)/2)
		}
		name := func(kind string, k int) string { return fmt.Sprintf("KSTREAM-%s-%010d", kind, i*4+k) }
		subs = append(subs, topologytest.Sub(fmt.Sprint(i),
			topologytest.Src(name("SOURCE", 0), []string{in}, name("MAPVALUES", 1)),
			topologytest.Proc(name("MAPVALUES", 1), nil, name("AGGREGATE", 2)),
			topologytest.Proc(name("AGGREGATE", 2), []string{fmt.Sprintf("step-%d-store", i)}, name("SINK", 3)),
			topologytest.Sink(name("SINK", 3), fmt.Sprintf("clickstream-enrichment-step-%d-repartition", i))))
	}
	return topologytest.Desc(subs)
}
