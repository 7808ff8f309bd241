// The lag and time-lag history of a group: two lines on one time axis,
// the lag (records) on the left scale, the time lag on the right one.
// The time axis has ticks at a round step that leaves room for each
// label (so one sample, or two, never repeat a label), and its figures
// are also said in words below it (the page's chartSummary), which the
// picture's label points to.
import { s, h, fmtInt, fmtMs } from './dom.js';

export function historyChart(samples, width) {
  const W = Math.max(320, width || 800), H = 220;
  const m = { l: 64, r: 64, t: 14, b: 28 };
  const svg = s('svg', { class: 'chart', width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'lag history chart', 'aria-describedby': 'chart-summary' });
  if (!samples.length) {
    svg.appendChild(s('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'muted' }, 'No samples yet'));
    return svg;
  }
  const ts = samples.map(x => Date.parse(x.time));
  let t0 = ts[0], t1 = ts[ts.length - 1];
  // Fewer than a minute of samples: the last minute, the samples at its end.
  if (t1 - t0 < 60000) t0 = t1 - 60000;
  const lagMax = niceMax(Math.max(1, ...samples.map(x => x.lag)));
  const tl = samples.filter(x => x.time_lag_ms !== null);
  const tlMax = niceMax(Math.max(1, ...tl.map(x => x.time_lag_ms)));
  const X = t => m.l + (t - t0) / (t1 - t0) * (W - m.l - m.r);
  const Y = (v, max) => H - m.b - v / max * (H - m.t - m.b);

  const grid = s('g', { class: 'grid' });
  for (let i = 0; i <= 4; i++) {
    const y = Y(lagMax * i / 4, lagMax);
    grid.appendChild(s('line', { x1: m.l, x2: W - m.r, y1: y, y2: y }));
    grid.appendChild(s('text', { x: m.l - 6, y: y + 4, 'text-anchor': 'end', class: 'axis lag' }, fmtInt(Math.round(lagMax * i / 4))));
    if (tl.length) grid.appendChild(s('text', { x: W - m.r + 6, y: y + 4, class: 'axis tl' }, fmtMs(Math.round(tlMax * i / 4))));
  }
  for (const t of timeTicks(t0, t1, Math.floor((W - m.l - m.r) / 70))) {
    grid.appendChild(s('text', { x: X(t.at), y: H - 8, 'text-anchor': 'middle', class: 'axis time' }, t.label));
  }
  svg.appendChild(grid);
  const line = (pts, cls) => s('polyline', { class: 'line ' + cls, points: pts.map(p => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' ') });
  svg.appendChild(line(samples.map((x, i) => [X(ts[i]), Y(x.lag, lagMax)]), 'lag'));
  if (tl.length) svg.appendChild(line(tl.map(x => [X(Date.parse(x.time)), Y(x.time_lag_ms, tlMax)]), 'tl'));
  const last = samples[samples.length - 1];
  svg.appendChild(s('circle', { class: 'dot lag', cx: X(ts[ts.length - 1]), cy: Y(last.lag, lagMax), r: 3 }));
  return svg;
}

export function legend(hasTimeLag) {
  return h('div', { class: 'legend' },
    h('span', { class: 'key lag' }, 'lag (records, left)'),
    hasTimeLag ? h('span', { class: 'key tl' }, 'time lag (right)') : null);
}

const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map(x => x * 1000);

// timeTicks are the times of the axis between t0 and t1: multiples of
// the smallest round step that gives at most most ticks, each labelled
// to the minute, or to the second when the step is under a minute; no
// two labels are the same.
export function timeTicks(t0, t1, most) {
  const span = Math.max(1, t1 - t0);
  const step = STEPS.find(x => span / x <= Math.max(1, most)) || STEPS[STEPS.length - 1];
  const opts = step < 60000 ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }
    : { hour: '2-digit', minute: '2-digit', hour12: false };
  const out = [], seen = new Set();
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const label = new Date(t).toLocaleTimeString('en-GB', opts);
    if (!seen.has(label)) { seen.add(label); out.push({ at: t, label }); }
  }
  return out;
}

function niceMax(v) {
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const k of [1, 2, 2.5, 5, 10]) if (k * p >= v) return k * p;
  return 10 * p;
}
