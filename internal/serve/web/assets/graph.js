// The topology as an interactive SVG graph, laid out here in two levels:
// sub-topologies are boxes in layers from left to right (an edge is a
// topic one writes and another reads: a repartition topic, or a user
// topic the application reads back), and an opened box lays out its
// processor nodes in layers from top to bottom (longest path from the
// sources; within a layer, ordered by the mean place of their
// predecessors), so a box stays narrow beside the next one. Boxes are filled
// by their health: the check's lag conditions applied to the box's own
// figures (its time lag when known, else its largest task lag, else its
// lag), and say their share of the group's lag as a figure. Every label
// is measured and cut by its middle to fit its box. Nodes and boxes are
// focusable; Enter opens the side panel. Large topologies open closed: a box
// is drawn with its nodes only once opened, so the first drawing costs
// one box per sub-topology whatever the node count. Pan with the pointer,
// zoom with the wheel; names are hidden when zoomed far out.
import { s, clear, fmtInt, fmtMs, fit, bound, textWidth, MAX_TEXT } from './dom.js';

// The fonts of app.css's .node .name, .node .detail, .sub-line,
// .sub-title, .sub-lag and .edge-label: the labels are measured in them.
const FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const F_NAME = '600 11px ' + FAMILY, F_DETAIL = '11px ' + FAMILY, F_LINE = '12px ' + FAMILY;
const F_TITLE = '700 13px ' + FAMILY, F_LAG = '600 12px ' + FAMILY, F_EDGE = '11px ' + FAMILY;

const NW = 232, NH = 40, LX = 16, LY = 30, PAD = 14, HEAD = 52;
const CW = 252, CH = 104, COLGAP = 130, ROWGAP = 28;
// Topologies above these open with every sub-topology closed.
const OPEN_NODES = 160, OPEN_SUBS = 12;
// Nodes are drawn in tiles of TILE×TILE, and only from zoom NODE_ZOOM on.
const TILE = 1200, NODE_ZOOM = 0.2;

export class TopologyView {
  constructor(host, onSelect) {
    this.host = host;
    this.onSelect = onSelect;
    this.expanded = new Set();
    this.tiles = [];
    this.sig = null;
    this.k = 1; this.tx = 20; this.ty = 20;
    this.svg = s('svg', { class: 'topo', role: 'group', 'aria-label': 'topology graph: Tab moves through its boxes and nodes, Enter opens one' });
    this.svg.appendChild(s('defs', null,
      s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
    this.view = s('g', { class: 'viewport' });
    this.svg.appendChild(this.view);
    host.appendChild(this.svg);
    this.rect = this.svg.getBoundingClientRect();
    window.addEventListener('resize', () => { this.rect = this.svg.getBoundingClientRect(); this.schedule(); });
    this.bindPanZoom();
  }

  // update draws a group's overview document; the same topology keeps
  // its drawing, its opened boxes and its view, and only repaints lags.
  update(doc, thresholds) {
    this.doc = doc;
    this.thresholds = thresholds || {};
    const subs = doc.subtopologies || [];
    // What the drawing shows besides the lag: a change redraws it.
    const sig = (doc.topology_description_status || '') + '|' + subs.map(st =>
      st.id + ':' + st.task_count + ':' + (st.source_topics || []).map(t => t.topic).join(',') + ':' +
      [...(st.repartition_sink_topics || []), ...(st.sink_topics || [])].join(',') + ':' + (st.stores || []).length + ':' +
      (st.nodes ? st.nodes.map(n => n.name).join(',') : '-')).join(';');
    if (sig === this.sig) { this.paintLag(); return; }
    const first = this.sig === null;
    this.sig = sig;
    if (first) {
      const nodes = subs.reduce((a, st) => a + (st.nodes ? st.nodes.length : 0), 0);
      if (nodes <= OPEN_NODES && subs.length <= OPEN_SUBS) subs.forEach(st => this.expanded.add(st.id));
    }
    this.draw(first);
  }

  toggle(id) {
    if (this.expanded.has(id)) this.expanded.delete(id); else this.expanded.add(id);
    this.draw();
  }
  expandAll() { (this.doc.subtopologies || []).forEach(st => { if (st.nodes) this.expanded.add(st.id); }); this.draw(true); }
  collapseAll() { this.expanded.clear(); this.draw(true); }

  // layout places the boxes and, in opened boxes, the nodes.
  layout() {
    const subs = this.doc.subtopologies || [];
    const readers = new Map();
    subs.forEach((st, i) => (st.source_topics || []).forEach(t => {
      if (!readers.has(t.topic)) readers.set(t.topic, []);
      readers.get(t.topic).push(i);
    }));
    const out = subs.map(() => []), edges = [];
    subs.forEach((st, i) => {
      for (const t of [...(st.repartition_sink_topics || []), ...(st.sink_topics || [])]) {
        for (const j of readers.get(t) || []) if (j !== i) { out[i].push(j); edges.push({ from: i, to: j, topic: t }); }
      }
    });
    const layer = longestPath(subs.length, out);
    const boxes = subs.map((st, i) => {
      const open = this.expanded.has(st.id) && !!st.nodes;
      const b = { i, st, open, layer: layer[i], x: 0, y: 0, w: CW, h: CH };
      if (open) Object.assign(b, layoutNodes(st.nodes));
      return b;
    });
    // Columns by layer; a long layer wraps into several columns.
    const byLayer = [];
    boxes.forEach(b => (byLayer[b.layer] ||= []).push(b));
    const perCol = Math.max(8, Math.ceil(Math.sqrt(boxes.length)));
    let x = 0, height = 0;
    for (const col of byLayer) {
      if (!col) continue;
      for (let c = 0; c < col.length; c += perCol) {
        let y = 0, w = 0;
        for (const b of col.slice(c, c + perCol)) {
          b.x = x; b.y = y; y += b.h + ROWGAP; w = Math.max(w, b.w);
        }
        height = Math.max(height, y);
        x += w + COLGAP;
      }
    }
    const globals = (this.doc.global_stores || []).map((gs, i) => ({ gs, x, y: i * (CH + ROWGAP), w: CW, h: CH }));
    if (globals.length) { x += CW + COLGAP; height = Math.max(height, globals.length * (CH + ROWGAP)); }
    return { boxes, edges, globals, width: Math.max(x - COLGAP, CW), height: Math.max(height - ROWGAP, CH) };
  }

  // draw lays out and draws the boxes; fitting, the view then shows the
  // whole graph (else it keeps its place and zoom).
  draw(fitting) {
    const t0 = performance.now();
    // The view's size, read before the new drawing is in the document:
    // reading it after would lay the whole drawing out at once.
    this.rect = this.svg.getBoundingClientRect();
    const L = this.lay = this.layout();
    clear(this.view);
    // Boxes and labels out of view are not displayed: the browser would
    // lay their text out again at every step of a zoom (cull).
    this.culled = [];
    const frag = document.createDocumentFragment();
    const edgeLayer = s('g', { class: 'sub-edges' });
    for (const e of L.edges) {
      const a = L.boxes[e.from], b = L.boxes[e.to];
      const x1 = a.x + a.w, y1 = a.y + Math.min(a.h / 2, 43), x2 = b.x, y2 = b.y + Math.min(b.h / 2, 43);
      const back = x2 <= x1;
      const d = back
        ? `M${x1},${y1} C${x1 + 60},${y1 - 80} ${x2 - 60},${y2 - 80} ${x2},${y2}`
        : `M${x1},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2},${y2}`;
      edgeLayer.appendChild(s('path', { d, class: 'sub-edge', 'marker-end': 'url(#arrow)' }, s('title', null, e.topic)));
      const label = s('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 6, class: 'edge-label', 'text-anchor': 'middle' },
        fit(e.topic, Math.max(40, Math.abs(x2 - x1) - 16), F_EDGE));
      edgeLayer.appendChild(label);
      const lx = (x1 + x2) / 2, ly = (y1 + y2) / 2;
      this.culled.push({ el: label, x0: lx - 80, y0: ly - 20, x1: lx + 80, y1: ly + 10 });
    }
    frag.appendChild(edgeLayer);
    this.subEls = [];
    this.tiles = [];
    for (const b of L.boxes) {
      const el = this.drawBox(b);
      this.culled.push({ el, x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h });
      frag.appendChild(el);
    }
    for (const g of L.globals) frag.appendChild(drawGlobal(g));
    this.paintLag();
    if (fitting) this.fit(); else this.apply();
    this.view.appendChild(frag);
    this.cull();
    this.lastDrawMs = performance.now() - t0;
    performance.measure('topology-draw', { start: t0, end: performance.now() });
  }

  drawBox(b) {
    const st = b.st;
    const g = s('g', { class: 'sub' + (b.open ? ' open' : ''), transform: `translate(${b.x},${b.y})`, 'data-sub': b.i,
      // A closed box is a control; an opened one holds controls (its
      // nodes), so it is a group (a control may not hold another).
      tabindex: b.open ? null : 0, role: b.open ? 'group' : 'button' });
    const rect = s('rect', { class: 'sub-box', width: b.w, height: b.h, rx: 8 });
    const inner = b.w - 2 * PAD;
    const title = s('text', { x: PAD, y: 21, class: 'sub-title' }, fit('Sub-topology ' + st.id, inner - 60, F_TITLE));
    const lagText = s('text', { x: PAD, y: 40, class: 'sub-lag' });
    // Its title (the name said, and shown on hover) is written by paintLag.
    const tip = s('title');
    g.append(rect, title, lagText, tip);
    this.subEls[b.i] = { g, rect, lagText, tip, w: inner };
    if (!b.open) {
      const srcs = (st.source_topics || []).map(t => t.topic), sinks = [...(st.repartition_sink_topics || []), ...(st.sink_topics || [])];
      if (st.nodes) g.appendChild(s('text', { x: b.w - PAD, y: 21, class: 'sub-close', 'text-anchor': 'end' }, '▸ open'));
      g.appendChild(s('text', { x: PAD, y: 60, class: 'sub-line' }, fit('⇢ ' + (srcs.join(', ') || '–'), inner, F_LINE)));
      g.appendChild(s('text', { x: PAD, y: 77, class: 'sub-line' }, fit('⇠ ' + (sinks.join(', ') || (st.dynamic_sink ? 'dynamic' : '–')), inner, F_LINE)));
      const n = st.nodes ? fmtInt(st.nodes.length) + ' nodes' : 'no nodes (' + (this.doc.topology_description_status || 'no description') + ')';
      const tasks = fmtInt(st.task_count) + ' tasks', stores = fmtInt((st.stores || []).length) + ' stores';
      // Whole facts rather than a sentence cut in its middle.
      const line = [[n, tasks, stores], [n, tasks], [n]].map(x => x.join(' · ')).find(x => textWidth(x, F_LINE) <= inner) || n;
      g.appendChild(s('text', { x: PAD, y: 94, class: 'sub-line muted' }, fit(line, inner, F_LINE)));
      return g;
    }
    g.appendChild(s('text', { x: b.w - PAD, y: 21, class: 'sub-close', 'text-anchor': 'end', 'data-close': b.i,
      tabindex: 0, role: 'button', 'aria-label': 'close sub-topology ' + st.id }, '▾ close'));
    // The nodes are drawn by tiles, each only once it comes into view
    // at a zoom where nodes can be told apart (cull).
    const tiles = new Map();
    for (const [ni] of st.nodes.entries()) {
      const p = b.pos[ni];
      const key = Math.floor(p.x / TILE) + ',' + Math.floor(p.y / TILE);
      if (!tiles.has(key)) {
        const tx = Math.floor(p.x / TILE) * TILE, ty = Math.floor(p.y / TILE) * TILE;
        tiles.set(key, { box: b, host: g, nodes: [], el: null, x0: b.x + tx - TILE / 2, y0: b.y + ty - TILE / 2, x1: b.x + tx + TILE * 1.5, y1: b.y + ty + TILE * 1.5 });
      }
      tiles.get(key).nodes.push(ni);
    }
    for (const tile of tiles.values()) this.tiles.push(tile);
    return g;
  }

  // cull shows the tiles in view, drawing those never drawn, and hides
  // the others; far out, no node is drawn (the boxes are).
  cull() {
    const r = this.rect;
    const vx0 = -this.tx / this.k, vy0 = -this.ty / this.k;
    const vx1 = vx0 + (r.width || 1000) / this.k, vy1 = vy0 + (r.height || 800) / this.k;
    for (const c of this.culled || []) {
      const show = c.x1 > vx0 && c.x0 < vx1 && c.y1 > vy0 && c.y0 < vy1;
      if (c.shown !== show) { c.el.style.display = show ? '' : 'none'; c.shown = show; }
    }
    const near = this.k >= NODE_ZOOM;
    for (const t of this.tiles) {
      const show = near && t.x1 > vx0 && t.x0 < vx1 && t.y1 > vy0 && t.y0 < vy1;
      if (show && !t.el) { t.el = drawTile(t); t.host.appendChild(t.el); }
      if (t.el && t.shown !== show) { t.el.style.display = show ? '' : 'none'; }
      t.shown = show;
    }
  }

  // paintLag fills each box by its health (health) and writes its lag,
  // its share of the group's lag and its time lag.
  paintLag() {
    const subs = this.doc.subtopologies || [];
    const total = subs.reduce((a, st) => a + Math.max(0, st.lag), 0);
    subs.forEach((st, i) => {
      const el = this.subEls && this.subEls[i];
      if (!el) return;
      const share = total > 0 ? Math.max(0, st.lag) / total : 0;
      const hl = health(st, this.thresholds);
      el.g.setAttribute('class', el.g.getAttribute('class').replace(/ health-\w+/g, '') + ' health-' + hl.status);
      el.rect.setAttribute('data-share', share.toFixed(3));
      const tl = st.time_lag && st.time_lag.milliseconds !== null ? ' · ' + fmtMs(st.time_lag.milliseconds) : '';
      const text = 'lag ' + fmtInt(st.lag) + (total > 0 ? ' · ' + Math.round(share * 100) + '% of the group\'s' : '') + tl;
      el.lagText.textContent = fit(text, el.w, F_LAG);
      const srcs = (st.source_topics || []).map(t => t.topic), sinks = [...(st.repartition_sink_topics || []), ...(st.sink_topics || [])];
      el.tip.textContent = bound('Sub-topology ' + st.id + (st.nodes && !this.expanded.has(st.id) ? ' (Enter or click opens it)' : '') + ': ' + hl.text + '; ' + text +
        '\nreads ' + (srcs.join(', ') || '–') + '\nwrites ' + (sinks.join(', ') || (st.dynamic_sink ? 'dynamic' : '–')), MAX_TEXT);
    });
  }

  bindPanZoom() {
    const svg = this.svg;
    let drag = null;
    this.moved = false;
    svg.addEventListener('pointerdown', e => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, tx: this.tx, ty: this.ty };
      this.moved = false;
    });
    svg.addEventListener('pointermove', e => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!this.moved && Math.hypot(dx, dy) < 4) return;
      if (!this.moved) { this.moved = true; try { svg.setPointerCapture(e.pointerId); } catch { /* a pointer the browser no longer tracks */ } svg.classList.add('panning'); }
      this.tx = drag.tx + dx; this.ty = drag.ty + dy;
      this.schedule();
    });
    const end = () => { drag = null; svg.classList.remove('panning'); };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
    svg.addEventListener('wheel', e => {
      e.preventDefault();
      const r = this.rect = svg.getBoundingClientRect();
      // Names are hidden while the wheel turns: the browser would shape
      // every name again at each new scale.
      if (!this.zoomEnd) svg.classList.add('zooming');
      clearTimeout(this.zoomEnd);
      this.zoomEnd = setTimeout(() => { this.zoomEnd = 0; svg.classList.remove('zooming'); }, 180);
      const f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015));
      this.zoomAt(e.clientX - r.left, e.clientY - r.top, f);
    }, { passive: false });
    svg.addEventListener('keydown', e => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      if (!e.target.closest('[data-node], [data-sub], [data-close]')) return;
      e.preventDefault();
      this.moved = false;
      const sub = e.target.closest('[data-sub]');
      const i = sub && sub.getAttribute('data-sub');
      this.activate(e.target);
      // Opening or closing a box draws it anew: the focus stays on it.
      if (i !== null && !document.activeElement.closest('svg.topo')) {
        const again = this.view.querySelector('[data-sub="' + i + '"]');
        const target = again && (again.querySelector('[data-close], [data-node]') || again);
        if (target) target.focus();
      }
    });
    // A box or node reached by Tab is brought into view.
    svg.addEventListener('focusin', e => {
      const el = e.target.closest('[data-node], [data-sub]');
      if (el) this.reveal(el);
    });
    svg.addEventListener('click', e => {
      if (this.moved) { this.moved = false; return; }
      this.activate(e.target);
    });
  }

  // activate is a click (or Enter) on target: close a box, select a
  // node, or open and select a box.
  activate(target) {
    const close = target.closest('[data-close]');
    if (close) { this.toggle(this.doc.subtopologies[+close.getAttribute('data-close')].id); return; }
    const node = target.closest('[data-node]');
    const sub = target.closest('[data-sub]');
    if (node && sub) {
      const st = this.doc.subtopologies[+sub.getAttribute('data-sub')];
      this.view.querySelectorAll('.node.selected').forEach(x => x.classList.remove('selected'));
      node.classList.add('selected');
      this.onSelect(st, st.nodes[+node.getAttribute('data-node')]);
      return;
    }
    if (sub) {
      const st = this.doc.subtopologies[+sub.getAttribute('data-sub')];
      if (!this.expanded.has(st.id) && st.nodes) this.toggle(st.id);
      this.onSelect(st, null);
    }
  }

  // reveal pans the view so that el is inside it.
  reveal(el) {
    const r = el.getBoundingClientRect(), v = this.svg.getBoundingClientRect();
    if (r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom) return;
    this.tx += (v.left + v.width / 2) - (r.left + r.width / 2);
    this.ty += (v.top + v.height / 2) - (r.top + r.height / 2);
    this.apply();
  }

  zoomAt(px, py, f) {
    const k = Math.min(1.5, Math.max(0.002, this.k * f));
    f = k / this.k;
    this.tx = px - (px - this.tx) * f;
    this.ty = py - (py - this.ty) * f;
    this.k = k;
    this.schedule();
  }

  fit() {
    if (!this.lay) return;
    const r = this.rect;
    const w = r.width || 900, hgt = r.height || 500;
    const k = Math.min(1, Math.max(0.002, Math.min((w - 40) / this.lay.width, (hgt - 40) / this.lay.height)));
    this.k = k;
    this.tx = (w - this.lay.width * k) / 2;
    this.ty = Math.max(20, (hgt - this.lay.height * k) / 2);
    this.apply();
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.apply(); });
  }

  apply() {
    this.view.setAttribute('transform', `translate(${this.tx.toFixed(1)},${this.ty.toFixed(1)}) scale(${this.k.toFixed(4)})`);
    const far = this.k < 0.45, farther = this.k < 0.16;
    if (far !== this.far) { this.far = far; this.svg.classList.toggle('far', far); }
    if (farther !== this.farther) { this.farther = farther; this.svg.classList.toggle('farther', farther); }
    this.cull();
  }
}

// drawTile draws a tile's nodes and the edges that leave them.
function drawTile(t) {
  const b = t.box, st = b.st;
  const edges = s('g', { class: 'edges' });
  const nodes = s('g', { class: 'nodes' });
  for (const ni of t.nodes) {
    const n = st.nodes[ni], p = b.pos[ni];
    for (const succ of n.successors || []) {
      const qi = b.index.get(succ);
      if (qi === undefined) continue;
      const q = b.pos[qi];
      const x1 = p.x + NW / 2, y1 = p.y + NH, x2 = q.x + NW / 2, y2 = q.y;
      const d = y2 > y1 ? `M${x1},${y1} C${x1},${y1 + LY / 2} ${x2},${y2 - LY / 2} ${x2},${y2}`
        : `M${x1},${y1} C${x1 + 60},${y1 + 40} ${x2 + 60},${y2 - 40} ${x2},${y2}`;
      edges.appendChild(s('path', { d, class: 'edge', 'marker-end': 'url(#arrow)' }));
    }
    const sub2 = n.type === 'source' ? (n.topics || []).join(', ') || n.topic_pattern || ''
      : n.type === 'sink' ? (n.topic ?? 'dynamic') : (n.stores || []).join(', ');
    const label = fit(n.name, NW - 16, F_NAME);
    const detail = sub2 ? fit((n.type === 'processor' ? '▤ ' : n.type === 'source' ? '⇢ ' : '⇠ ') + sub2, NW - 16, F_DETAIL) : n.type;
    // Its name, for a screen reader as on hover, is its title: the
    // whole name (an aria-label would hide the text it shows).
    nodes.appendChild(s('g', { class: 'node ' + n.type, transform: `translate(${p.x},${p.y})`, 'data-node': ni,
      tabindex: 0, role: 'button' },
      s('rect', { width: NW, height: NH, rx: 5 }),
      s('text', { x: 8, y: 16, class: 'name' }, label),
      s('text', { x: 8, y: 32, class: 'detail' }, detail),
      s('title', null, n.type + ' ' + n.name + (sub2 ? '\n' + sub2 : ''))));
  }
  return s('g', { class: 'tile' }, edges, nodes);
}

function drawGlobal(g) {
  const src = g.gs.source, proc = g.gs.processor, inner = g.w - 2 * PAD;
  return s('g', { class: 'sub global', transform: `translate(${g.x},${g.y})` },
    s('rect', { class: 'sub-box', width: g.w, height: g.h, rx: 8 }),
    s('text', { x: PAD, y: 21, class: 'sub-title' }, fit('Global store ' + g.gs.id, inner, F_TITLE)),
    s('text', { x: PAD, y: 60, class: 'sub-line' }, fit('⇢ ' + (src.topics || []).join(', '), inner, F_LINE)),
    s('text', { x: PAD, y: 77, class: 'sub-line' }, fit('▤ ' + (proc.stores || []).join(', '), inner, F_LINE)),
    s('text', { x: PAD, y: 94, class: 'sub-line muted' }, fit(src.name + ' → ' + proc.name, inner, F_LINE)),
    s('title', null, src.name + ' → ' + proc.name + '\nreads ' + (src.topics || []).join(', ') + '\nstores ' + (proc.stores || []).join(', ')));
}

// layoutNodes places a sub-topology's nodes in layers (longest path from
// the nodes nothing in the sub-topology feeds), rows by the mean row of
// the predecessors, and returns the box's size.
function layoutNodes(nodes) {
  const index = new Map();
  nodes.forEach((n, i) => { if (!index.has(n.name)) index.set(n.name, i); });
  const out = nodes.map(n => (n.successors || []).map(x => index.get(x)).filter(x => x !== undefined));
  const layer = longestPath(nodes.length, out);
  const layers = [];
  layer.forEach((l, i) => (layers[l] ||= []).push(i));
  const row = new Array(nodes.length).fill(0);
  const preds = nodes.map(() => []);
  out.forEach((succ, i) => succ.forEach(j => preds[j].push(i)));
  for (const ids of layers) {
    if (!ids) continue;
    const key = new Map(ids.map((id, k) => [id, preds[id].length ? preds[id].reduce((a, p) => a + row[p], 0) / preds[id].length : k]));
    ids.sort((a, b) => key.get(a) - key.get(b));
    ids.forEach((id, r) => { row[id] = r; });
  }
  let cols = 1;
  for (const l of layers) if (l && l.length > cols) cols = l.length;
  const pos = nodes.map((_, i) => ({ x: PAD + row[i] * (NW + LX), y: HEAD + PAD + layer[i] * (NH + LY) }));
  return {
    pos, index,
    w: Math.max(CW, PAD * 2 + cols * (NW + LX) - LX),
    h: HEAD + PAD * 2 + layers.length * (NH + LY) - LY,
  };
}

// longestPath gives each vertex its layer: 0 for a vertex nothing points
// at, else one more than its furthest predecessor. Vertices on a cycle
// (a topology should have none) follow in a layer of their own.
function longestPath(n, out) {
  const indeg = new Array(n).fill(0);
  out.forEach(succ => succ.forEach(j => indeg[j]++));
  const layer = new Array(n).fill(0);
  const queue = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue.push(i);
  let done = 0;
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    done++;
    for (const j of out[i]) {
      layer[j] = Math.max(layer[j], layer[i] + 1);
      if (--indeg[j] === 0) queue.push(j);
    }
  }
  if (done < n) {
    const max = Math.max(0, ...layer);
    for (let i = 0; i < n; i++) if (indeg[i] > 0) layer[i] = max + 1;
  }
  return layer;
}

// health judges a sub-topology by the check's lag conditions (the
// detail document's thresholds) on its own figures: its time lag when
// it is known and a time-lag condition is set, else its largest task
// lag against the task-lag condition, else its lag against the group's
// lag condition. Without a condition that applies it is 'none' (no
// colour says more than the figures). The group's own status is the
// check's, on the page's head; a box never claims more than its figures.
export function health(st, t) {
  const judge = (v, warn, crit, what) => {
    if (v === null || v === undefined || (warn == null && crit == null)) return null;
    if (crit != null && v > crit) return { status: 'crit', text: 'CRITICAL: ' + what(v) + ' > ' + what(crit) };
    if (warn != null && v > warn) return { status: 'warn', text: 'WARNING: ' + what(v) + ' > ' + what(warn) };
    return { status: 'ok', text: 'OK: ' + what(v) + ' within ' + what(warn ?? crit) };
  };
  const tl = st.time_lag ? st.time_lag.milliseconds : null;
  return judge(tl, t.time_lag_warning_ms, t.time_lag_critical_ms, v => 'time lag ' + fmtMs(v)) ||
    judge(st.max_task_lag, t.task_lag_warning, t.task_lag_critical, v => 'task lag ' + fmtInt(v)) ||
    judge(st.lag, t.lag_warning, t.lag_critical, v => 'lag ' + fmtInt(v)) ||
    { status: 'none', text: 'no lag condition set' };
}
