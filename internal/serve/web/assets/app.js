// The console: a list of every streams group (#/) and a page per group
// (#/c/{cluster}/g/{group}), drawn from /api/v1 and asked again every
// refresh_ms (serve's collection interval: sooner would show nothing
// new), so the page follows the cluster without a reload. It only reads:
// no request it sends changes anything.
import { h, clear, put, fmtInt, fmtMs, fmtTime, badge, groupHref, apiGroup, bound, cli } from './dom.js';
import { TopologyView } from './graph.js';
import { historyChart, legend } from './chart.js';

const app = document.getElementById('app');
// A broker's message is shown to this many characters where there is
// room (elsewhere 200): serve keeps one cut at 1,000 characters with a
// note saying so ("[cut: the message has N characters; …]"), which
// this leaves whole.
const MESSAGE = 1200;
const state = {
  refresh: 5000,
  groups: null,          // the last /api/v1/groups document
  sort: { key: 'group', dir: 1 },
  filter: '',
  problemsOnly: false,
  route: null,
  page: null,            // the group page's live parts
  timer: 0,
  firstList: true,
};

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 'c' && parts[2] === 'g' && parts.length === 4) {
    try {
      return { kind: 'group', cluster: decodeURIComponent(parts[1]), group: decodeURIComponent(parts[3]) };
    } catch { /* a malformed escape: the list */ }
  }
  return { kind: 'list' };
}

function route() {
  const first = state.route === null;
  state.route = parseRoute();
  state.page = null;
  clearTimeout(state.timer);
  clear(app);
  app.setAttribute('aria-busy', 'true');
  delete app.dataset.drawn;
  if (state.route.kind === 'group') groupPage(state.route.cluster, state.route.group);
  else listPage();
  // A new page takes the focus, as a page load would put the reader at
  // its start: its heading (not on the first load, which has no reader
  // to move yet).
  if (!first) { const h1 = app.querySelector('h1'); if (h1) h1.focus(); }
  tick();
}

// tick asks for the documents of the page shown, then again refresh_ms
// after it started asking.
async function tick() {
  clearTimeout(state.timer);
  const r = state.route;
  const started = performance.now();
  try {
    const groups = await getJSON('/api/v1/groups');
    state.refresh = Math.max(200, groups.refresh_ms || 5000);
    state.groups = groups;
    drawClusters(groups.clusters);
    if (r !== state.route) return;
    if (r.kind === 'list') drawList();
    else await refreshGroup(r);
    if (r !== state.route) return;
    // Drawn: for a reader's tools, and the tests, which wait for it.
    app.setAttribute('aria-busy', 'false');
    app.dataset.drawn = location.hash;
    // When the last drawing was painted, for the measures (one mark, not
    // one per refresh).
    requestAnimationFrame(() => requestAnimationFrame(() => { performance.clearMarks('painted'); performance.mark('painted'); }));
    showBanner(null);
  } catch (e) {
    showBanner('Could not update (' + e.message + '); showing the last data. Retrying…');
  }
  if (r === state.route) state.timer = setTimeout(tick, Math.max(0, state.refresh - (performance.now() - started)));
}

async function getJSON(url) {
  const res = await fetch(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
  const body = await res.json().catch(() => null);
  // The last document read before a drawing: the measures start there.
  performance.clearMarks('parsed');
  performance.mark('parsed');
  if (!res.ok) {
    const err = new Error(body && body.error ? body.error.message : res.status + ' ' + res.statusText);
    err.status = res.status;
    err.doc = body;
    throw err;
  }
  return body;
}

function showBanner(text) {
  const b = document.getElementById('banner');
  // Written only when it changes: the banner is a live region.
  text = bound(text || '', MESSAGE);
  if ((b.textContent || '') === text) return;
  b.hidden = !text;
  b.textContent = text;
}

function drawClusters(clusters) {
  const el = clear(document.getElementById('clusters'));
  for (const c of clusters) {
    const kind = c.stale ? 'crit' : !c.last_success ? 'unknown' : c.status === 'OK' ? 'ok' : c.status === 'WARNING' ? 'warn' : c.status === 'CRITICAL' ? 'crit' : 'unknown';
    const chip = h('span', { class: 'chip ' + kind, title: c.error ? bound(c.error, MESSAGE) : 'last read ' + fmtTime(c.last_success) + ', cycle ' + c.cycle_seconds.toFixed(2) + 's' },
      h('b', null, bound(c.name, 60)), ' ', c.stale ? 'stale' : c.last_success ? fmtInt(c.group_count) + ' groups' : 'not read yet');
    el.appendChild(chip);
  }
  const u = document.getElementById('updated');
  u.textContent = 'updated ' + new Date().toLocaleTimeString('en-GB', { hour12: false }) + ' · every ' + fmtMs(state.refresh);
  u.setAttribute('data-refresh-ms', state.refresh);
}

// ---- the list -------------------------------------------------------

const COLUMNS = [
  { key: 'cluster', label: 'Cluster' },
  { key: 'group', label: 'Group' },
  { key: 'state', label: 'State' },
  { key: 'member_count', label: 'Members', num: true },
  { key: 'lag', label: 'Lag', num: true },
  { key: 'time_lag_ms', label: 'Time lag', num: true },
  { key: 'standby', label: 'Standbys', num: true },
  { key: 'topology_description_status', label: 'Description' },
  { key: 'status', label: 'Check' },
];

const STATUS_RANK = { OK: 0, WARNING: 1, UNKNOWN: 2, CRITICAL: 3, '': -1 };

function sortValue(g, key) {
  switch (key) {
    case 'standby': return g.standby_coverage ? g.standby_coverage.covered / g.standby_coverage.stateful_tasks : -1;
    case 'time_lag_ms': return g.time_lag_ms ?? -1;
    case 'status': return STATUS_RANK[g.status] ?? -1;
    default: return g[key] ?? '';
  }
}

function listPage() {
  const filter = h('input', { type: 'search', id: 'filter', placeholder: 'Filter by cluster, group, state or status…', 'aria-label': 'filter groups', value: state.filter });
  filter.addEventListener('input', () => { state.filter = filter.value; drawList(); });
  const only = h('input', { type: 'checkbox', id: 'problems-only', checked: state.problemsOnly });
  only.addEventListener('change', () => { state.problemsOnly = only.checked; drawList(); });
  const head = h('tr', null, COLUMNS.map(c => {
    const button = h('button', { type: 'button', class: 'sort' }, c.label);
    button.addEventListener('click', () => {
      state.sort = { key: c.key, dir: state.sort.key === c.key ? -state.sort.dir : (c.num || c.key === 'status' ? -1 : 1) };
      drawList();
    });
    return h('th', { scope: 'col', class: c.num ? 'num sortable' : 'sortable', 'data-key': c.key }, button);
  }));
  app.append(
    h('section', { class: 'toolbar' }, h('h1', { tabindex: -1 }, 'Streams groups'), h('span', { id: 'count', class: 'muted' }),
      h('div', { class: 'spacer' }), filter, h('label', { class: 'check' }, only, ' problems only')),
    h('p', { class: 'cli' }, h('span', { class: 'muted' }, 'The same in a terminal (with --profile NAME for a cluster):'), ' ',
      h('code', null, cli(null, 'check', '--all-groups')), ' ', h('span', { class: 'muted' }, 'or'), ' ', h('code', null, cli(null, 'list', '--state'))),
    h('ul', { id: 'stale', class: 'problems' }),
    h('div', { class: 'table-wrap' }, h('table', { id: 'groups', class: 'groups' }, h('thead', null, head), h('tbody'))),
  );
  if (state.groups) drawList();
}

function drawList() {
  const table = document.getElementById('groups');
  if (!table || !state.groups) return;
  // A cluster whose last cycle failed, or that was never read, says so.
  put(document.getElementById('stale'), ...state.groups.clusters.filter(c => c.stale || !c.last_success).map(c =>
    h('li', { class: 'crit' }, c.name + ': ' + (c.last_success ? 'the last cycle failed, showing the one of ' + fmtTime(c.last_success) : 'not read yet') +
      (c.error ? ' (' + bound(c.error, MESSAGE) + ')' : ''))));
  const q = state.filter.trim().toLowerCase();
  let rows = state.groups.groups.filter(g => !q || [g.cluster, g.group, g.state, g.status, g.topology_description_status]
    .some(v => (v || '').toLowerCase().includes(q)));
  if (state.problemsOnly) rows = rows.filter(g => g.status && g.status !== 'OK');
  const { key, dir } = state.sort;
  rows.sort((a, b) => {
    const x = sortValue(a, key), y = sortValue(b, key);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c * dir || a.group.localeCompare(b.group) || a.cluster.localeCompare(b.cluster);
  });
  for (const th of table.tHead.rows[0].cells) {
    const k = th.getAttribute('data-key');
    th.setAttribute('aria-sort', k === key ? (dir > 0 ? 'ascending' : 'descending') : 'none');
  }
  const body = h('tbody');
  const multi = state.groups.clusters.length > 1;
  for (const g of rows) {
    const cov = g.standby_coverage;
    const tr = h('tr', { class: 'status-' + (g.status || 'none').toLowerCase() },
      h('td', { class: 'cluster' + (multi ? '' : ' muted') }, g.cluster),
      // A name breaks at its spaces and hyphens; one with a long run
      // without them may break anywhere (else it would widen the table).
      h('td', { class: /[^\s-]{24,}/.test(g.group) ? 'group long' : 'group' }, h('a', { href: groupHref(g.cluster, g.group), title: g.group.length > 80 ? g.group : null }, bound(g.group, 300)),
        g.error ? h('div', { class: 'err', title: bound(g.error.message, MESSAGE) }, g.error.name + ': ' + bound(g.error.message, 200)) : null),
      h('td', { class: 'state' }, g.state ? badge(g.state) : '–'),
      h('td', { class: 'num' }, fmtInt(g.member_count)),
      h('td', { class: 'num' }, fmtInt(g.lag)),
      h('td', { class: 'num' }, fmtMs(g.time_lag_ms)),
      h('td', { class: 'num', title: cov ? cov.covered + ' of ' + cov.stateful_tasks + ' stateful tasks have a standby on another process' : 'no stateful task' },
        cov ? cov.covered + '/' + cov.stateful_tasks : '–'),
      h('td', null, g.topology_description_status ? badge(g.topology_description_status) : '–'),
      h('td', { class: 'status', title: g.problems.map(p => bound(p.message, 300)).join('\n') }, g.status ? badge(g.status) : '–',
        g.problems.length ? h('span', { class: 'problem' }, bound(g.problems[0].message, 200)) : null),
    );
    body.appendChild(tr);
  }
  table.replaceChild(body, table.tBodies[0]);
  const count = document.getElementById('count');
  count.textContent = rows.length === state.groups.groups.length ? fmtInt(rows.length) + ' groups'
    : fmtInt(rows.length) + ' of ' + fmtInt(state.groups.groups.length) + ' groups';
  if (!rows.length) body.appendChild(h('tr', null, h('td', { colspan: COLUMNS.length, class: 'empty' },
    state.groups.groups.length ? 'No group matches the filter.' : 'No streams group has been read yet.')));
  if (state.firstList) {
    state.firstList = false;
    performance.mark('list-drawn');
    requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('list-painted')));
  }
}

// ---- a group --------------------------------------------------------

function groupPage(cluster, group) {
  const p = state.page = { cluster, group, selected: null };
  p.title = h('h1', { tabindex: -1 }, bound(group, 300));
  p.why = h('div', { class: 'why' });
  p.badges = h('span', { class: 'badges' });
  p.facts = h('dl', { class: 'facts' });
  p.problems = h('ul', { class: 'problems' });
  p.graphHost = h('div', { class: 'graph-host' });
  p.panel = h('aside', { class: 'panel', id: 'node-panel', 'aria-label': 'selected node' },
    h('p', { class: 'muted' }, 'Click a node or a sub-topology (or Tab to it and press Enter) for its full name, topics, stores and tasks.'));
  p.tasks = h('div', { class: 'table-wrap' });
  p.members = h('div', { class: 'table-wrap' });
  p.chart = h('div', { class: 'chart-host' });
  p.events = h('ol', { class: 'events' });
  const btn = (label, fn) => { const b = h('button', { type: 'button' }, label); b.addEventListener('click', fn); return b; };
  app.append(
    h('nav', { class: 'crumbs', 'aria-label': 'breadcrumbs' }, h('a', { href: '#/' }, '← all groups'), ' / ', h('span', null, bound(cluster, 100))),
    h('section', { class: 'group-head' }, p.title, p.badges),
    cliLine(cli(cluster, 'overview', '--group', group), 'The same in a terminal:'),
    p.problems, p.why, p.facts,
    h('section', { class: 'card' },
      h('div', { class: 'card-head' }, h('h2', null, 'Topology'), h('span', { class: 'muted hint' }, 'drag to pan · wheel to zoom · Tab and Enter'),
        h('div', { class: 'spacer' }),
        btn('Open all', () => p.view && p.view.expandAll()), btn('Close all', () => p.view && p.view.collapseAll()), btn('Fit', () => p.view && p.view.fit())),
      healthLegend(),
      h('div', { class: 'graph-row' }, p.graphHost, p.panel)),
    h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', null, 'Tasks')), p.tasks),
    h('div', { class: 'two' },
      h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', null, 'Lag, last hour')), p.chart),
      h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', null, 'What changed')), p.events)),
    h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', null, 'Members')), p.members),
  );
}

async function refreshGroup(r) {
  const p = state.page;
  const base = apiGroup(r.cluster, r.group);
  let detail, history, events;
  try {
    [detail, history, events] = await Promise.all([getJSON(base), getJSON(base + '/history'), getJSON(base + '/events')]);
  } catch (e) {
    if (e.status === 404 || e.status === 503) {
      put(p.badges, badge(e.status === 404 ? 'not found' : 'not read yet', 'crit'));
      put(p.problems, h('li', { class: 'crit' }, e.message));
      return;
    }
    throw e;
  }
  if (state.page !== p) return;
  drawGroup(p, detail, history, events);
}

function drawGroup(p, d, history, events) {
  const o = d.overview, c = d.check;
  p.doc = o;
  const stateBadge = o.state ? badge(o.state) : null;
  if (stateBadge) stateBadge.setAttribute('id', 'group-state');
  put(p.badges,
    stateBadge,
    badge(c.status),
    d.cluster.stale ? badge('stale: ' + d.cluster.error, 'crit') : null);
  put(p.problems, ...c.problems.map(x => h('li', { class: x.status.toLowerCase() }, x.status + ' · ' + bound(x.message, MESSAGE))));
  drawWhy(p, o, d);
  if (o.error) { put(p.facts); return; }
  // Each label and its value are one cell of the grid: apart, a row of
  // an odd number of cells would put a value under the next label.
  const fact = (k, v) => h('div', { class: 'fact' }, h('dt', null, k), h('dd', null, v));
  put(p.facts,
    fact('Members', fmtInt(o.member_count)),
    fact('Lag', fmtInt(o.lag)),
    fact('Time lag', timeLagText(o.time_lag)),
    fact('Largest task', o.largest_task ? o.largest_task.id + ' (' + fmtInt(o.largest_task.lag) + ')' : '–'),
    fact('Moving tasks', fmtInt(c.moving_tasks)),
    fact('Epochs', 'group ' + o.group_epoch + ' · assignment ' + o.assignment_epoch + ' · topology ' + o.topology_epoch),
    fact('Assignor', bound(o.assignor_name || '–', 200)),
    fact('Description', badge(o.topology_description_status)),
    fact('Coordinator', o.coordinator ? bound(o.coordinator.host, 200) + ':' + o.coordinator.port + ' (id ' + o.coordinator.id + ')' : '–'),
  );
  if (!p.view) p.view = new TopologyView(p.graphHost, (st, node) => { p.selected = { st: st.id, node: node && node.name }; drawPanel(p); });
  const t0 = performance.now();
  p.view.update(o, d.thresholds);
  p.lastUpdateMs = performance.now() - t0;
  drawPanel(p);
  drawTasks(p, o);
  drawMembers(p, o);
  put(p.chart, historyChart(history.samples, contentWidth(p.chart)), legend(history.samples.some(x => x.time_lag_ms !== null)), chartSummary(history.samples));
  put(p.events, ...(events.events.length ? events.events.slice().reverse().map(eventItem)
    : [h('li', { class: 'muted' }, 'No change seen since serve started.')]));
  document.title = bound(o.group, 100) + ' · kstreams-groups';
}

// eventItem is one timeline entry: its time, its text and, for a
// rebalance read back from the group's history, its causes, one a line.
function eventItem(e) {
  const causes = (e.causes || []).slice(0, 20);
  const body = h('span', null, bound(e.text, 1000));
  if (causes.length) body.append(h('ul', { class: 'causes' }, ...causes.map(c => h('li', null, bound(c, 500)))));
  return h('li', null, h('time', { datetime: e.time }, fmtTime(e.time)), body);
}

// timeLagText is a time lag, or why there is none: not measured (serve
// without --time-lag), or not known (with the reason when there is one).
function timeLagText(tl) {
  if (!tl) return 'not measured';
  if (tl.milliseconds !== null) return fmtMs(tl.milliseconds);
  return h('span', { title: tl.error ? bound(tl.error, MESSAGE) : null }, 'not known' + (tl.error ? ': ' + bound(tl.error, 120) : ''));
}

// contentWidth is el's width inside its padding.
function contentWidth(el) {
  const cs = getComputedStyle(el);
  return Math.floor(el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
}

// cliLine is a command that prints in a terminal what the page shows.
function cliLine(command, label) {
  return h('p', { class: 'cli' }, h('span', { class: 'muted' }, label), ' ', h('code', null, command));
}

// healthLegend says what a box's colour and figures mean.
function healthLegend() {
  const key = (cls, text) => h('span', { class: 'swatch-key' }, h('span', { class: 'swatch ' + cls, 'aria-hidden': 'true' }), text);
  return h('div', { class: 'health-legend' },
    h('span', null, 'Colour: health by the check\'s lag conditions on the box\'s time lag, else task lag, else lag:'),
    key('health-ok', 'OK'), key('health-warn', 'WARNING'), key('health-crit', 'CRITICAL'), key('health-none', 'no condition set'),
    h('span', null, '· %: share of the group\'s lag'));
}

// drawWhy says why a group could not be read, or why it has no
// description, and how to ask doctor. The API has no doctor document
// (doctor sends requests of its own, the console none): the command is
// given instead.
function drawWhy(p, o, d) {
  const doctor = cli(p.cluster, 'doctor', '--group', p.group);
  const status = o.topology_description_status;
  let reason = null;
  if (o.error) {
    reason = ['The group could not be read: ', h('b', null, o.error.name), ': ', bound(o.error.message, MESSAGE)];
  } else if (status === 'NOT_STORED') {
    reason = ['The broker has no topology description for this group (', h('b', null, 'NOT_STORED'), '): its clients did not push one ' +
      '(topology.description.push.enabled=false, a client older than Kafka 4.4), or not yet (the push follows the first heartbeats). ' +
      'The boxes show the topics the topology declares, without nodes.'];
  } else if (status === 'ERROR') {
    reason = ['The broker could not store the topology description (', h('b', null, 'ERROR'), '): its plugin failed, and the broker\'s log names it. ' +
      'The boxes show the topics the topology declares, without nodes.'];
  }
  if (!reason) { put(p.why); return; }
  put(p.why, h('p', { class: 'why-reason' }, reason),
    h('p', null, 'Why, and what to do: ', h('code', null, doctor), h('span', { class: 'muted' }, ' (doctor reads the group, its members\' configs and the broker\'s, and names the cause).')));
}

// chartSummary is the chart's figures in words: its text alternative.
function chartSummary(samples) {
  if (!samples.length) return h('p', { class: 'chart-summary muted', id: 'chart-summary' }, 'No sample yet: the first comes with the next cycle.');
  const first = samples[0], last = samples[samples.length - 1];
  const most = samples.reduce((a, x) => Math.max(a, x.lag), 0);
  const tl = samples.filter(x => x.time_lag_ms !== null);
  return h('p', { class: 'chart-summary muted', id: 'chart-summary' },
    fmtInt(samples.length) + (samples.length === 1 ? ' sample at ' + fmtTime(first.time) : ' samples from ' + fmtTime(first.time) + ' to ' + fmtTime(last.time)) +
    ': lag ' + fmtInt(first.lag) + (samples.length > 1 ? ' → ' + fmtInt(last.lag) + ' (largest ' + fmtInt(most) + ')' : '') +
    (tl.length ? '; time lag ' + fmtMs(tl[tl.length - 1].time_lag_ms) + ' at the last' : '; time lag not measured') + '.');
}

function owners(list) {
  if (!list.length) return h('span', { class: 'muted' }, '–');
  return list.map((m, i) => [i ? ' ' : null, h('span', { class: 'ref', title: m.member_id + ' · ' + m.client_host + ' · ' + m.process_id }, m.ref)]);
}

function taskRows(tasks) {
  return tasks.map(t => h('tr', { class: t.moving ? 'moving' : null },
    h('td', null, t.id),
    h('td', null, owners(t.active)),
    h('td', null, owners(t.standby)),
    h('td', null, owners(t.warmup)),
    h('td', null, t.moving ? owners(t.target_active) : h('span', { class: 'muted' }, '–')),
    h('td', { class: 'num' }, fmtInt(t.lag)),
    h('td', { class: 'num' }, t.time_lag ? fmtMs(t.time_lag.milliseconds) : '–')));
}

function taskTable(tasks) {
  return h('table', { class: 'tasks' },
    h('thead', null, h('tr', null, ['Task', 'Active', 'Standby', 'Warm-up', 'Moving to', 'Lag', 'Time lag'].map((x, i) => h('th', { class: i >= 5 ? 'num' : null }, x)))),
    h('tbody', null, taskRows(tasks)));
}

// compactTasks is the panel's table: owners and lag only.
function compactTasks(tasks) {
  return h('table', { class: 'compact' },
    h('thead', null, h('tr', null, h('th', null, 'Task'), h('th', null, 'Active'), h('th', null, 'Standby'), h('th', { class: 'num' }, 'Lag'))),
    h('tbody', null, tasks.map(t => h('tr', { class: t.moving ? 'moving' : null },
      h('td', null, t.id), h('td', null, owners(t.active), t.warmup.length ? [' +', owners(t.warmup)] : null),
      h('td', null, owners(t.standby)), h('td', { class: 'num' }, fmtInt(t.lag))))));
}

const TASK_LIMIT = 500;

function drawTasks(p, o) {
  const all = o.subtopologies.flatMap(st => st.tasks);
  const shown = all.length > TASK_LIMIT ? all.slice().sort((a, b) => b.lag - a.lag).slice(0, TASK_LIMIT) : all;
  put(p.tasks, all.length ? taskTable(shown) : h('p', { class: 'muted' }, 'No task is assigned.'),
    all.length > TASK_LIMIT ? h('p', { class: 'muted' }, 'The ' + TASK_LIMIT + ' tasks with the most lag of ' + fmtInt(all.length) + '.') : null);
}

function drawMembers(p, o) {
  put(p.members, o.members.length ? h('table', { class: 'members' },
    h('thead', null, h('tr', null, ['', 'Member', 'Process', 'Client', 'Host', 'Endpoint'].map(x => h('th', null, x)))),
    h('tbody', null, o.members.map(m => h('tr', null, h('td', { class: 'ref' }, m.ref), h('td', { class: 'mono' }, m.member_id), h('td', { class: 'mono' }, m.process_id),
      h('td', null, m.client_id), h('td', { class: 'host' }, m.client_host), h('td', { class: 'host' }, m.user_endpoint ? m.user_endpoint.host + ':' + m.user_endpoint.port : '–')))))
    : h('p', { class: 'muted' }, 'No member.'));
}

// drawPanel shows the selected node (or sub-topology): its topics, stores,
// neighbours, and the tasks of its sub-topology.
function drawPanel(p) {
  if (!p.selected || !p.doc) return;
  const st = p.doc.subtopologies.find(x => x.id === p.selected.st);
  if (!st) { p.selected = null; return; }
  const node = p.selected.node && st.nodes ? st.nodes.find(n => n.name === p.selected.node) : null;
  const list = (label, xs) => xs && xs.length ? [h('h4', null, label), h('ul', null, xs.map(x => h('li', null, x)))] : null;
  const parts = [];
  if (node) {
    parts.push(h('h3', { class: 'full-name' }, bound(node.name, 1000)), h('p', null, badge(node.type, 'plain'), ' in sub-topology ' + st.id));
    parts.push(list('Topics', node.topics), node.topic_pattern ? list('Topic pattern', [node.topic_pattern]) : null,
      node.type === 'sink' ? list('Topic', [node.topic ?? 'chosen per record (dynamic)']) : null,
      list('Stores', node.stores), list('Predecessors', node.predecessors), list('Successors', node.successors));
  } else {
    parts.push(h('h3', null, 'Sub-topology ' + st.id), h('p', null, 'lag ' + fmtInt(st.lag) + ' · largest task lag ' + fmtInt(st.max_task_lag)));
    parts.push(list('Reads', st.source_topics.map(t => t.topic + (t.repartition ? ' (repartition)' : '') + (t.missing ? ' (missing)' : '') + ' · lag ' + fmtInt(t.lag))),
      list('Writes', [...st.sink_topics, ...st.repartition_sink_topics]),
      list('Stores', st.stores.map(x => x.name + (x.changelog_topic ? ' → ' + x.changelog_topic : ''))));
  }
  parts.push(h('h4', null, 'Tasks of sub-topology ' + st.id + ' (' + fmtInt(st.tasks.length) + ')'),
    st.tasks.length ? compactTasks(st.tasks.slice(0, 200)) : h('p', { class: 'muted' }, 'none'));
  put(p.panel, ...parts.flat().filter(Boolean));
}

window.addEventListener('hashchange', () => route());
route();
