// DOM helpers. Every string from the server (a broker's group, topic,
// node or member name) reaches the page as a text node or an attribute
// value set with setAttribute: never as markup. Nothing here parses HTML.

const SVG = 'http://www.w3.org/2000/svg';

// h builds an HTML element: attrs are set as attributes (on* names are
// refused), children are nodes or strings (text nodes).
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// s builds an SVG element the same way.
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

// No text node or attribute the page makes holds more than MAX_TEXT
// characters: a broker's message can be megabytes, and a browser lays
// out every character it is given (a 4 MB error took 30 s to draw).
// Where a whole string matters, the page says where it is (the API).
export const MAX_TEXT = 2000;

function build(el, attrs, children) {
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (/^on/i.test(k)) throw new Error('event handlers are not attributes: ' + k);
      // The attributes that show text are bounded; the others (a link's
      // target, a shape's points) are the page's own and kept whole.
      el.setAttribute(k, v === true ? '' : k === 'title' || k.startsWith('aria-') ? bound(String(v), MAX_TEXT) : String(v));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(bound(String(c), MAX_TEXT)));
  }
}

// bound cuts str after n characters and says how many were left out.
export function bound(str, n) {
  str = String(str ?? '');
  if (str.length <= n) return str;
  return safeSlice(str, 0, n) + '… (' + (str.length - n).toLocaleString('en-US') + ' more characters)';
}

// safeSlice is str.slice that never splits a surrogate pair.
function safeSlice(str, a, b) {
  if (a > 0 && isLow(str.charCodeAt(a))) a++;
  if (b < str.length && isLow(str.charCodeAt(b))) b--;
  return str.slice(a, b);
}

function isLow(c) { return c >= 0xdc00 && c <= 0xdfff; }

// cut shortens a name to n characters by its middle: generated names
// differ at their end (KSTREAM-FLATMAPVALUES-0000000012), so a numeric
// end is kept whole (and the rest goes to the start), else as much of
// the end as of the start.
export function cut(str, n) {
  str = String(str ?? '');
  if (str.length <= n) return str;
  if (n < 3) return safeSlice(str, 0, n);
  const num = /[-_.]?\d+$/.exec(str);
  let tail = Math.floor((n - 1) / 2);
  if (num && num[0].length <= n - 4) tail = num[0].length;
  const head = n - 1 - tail;
  return safeSlice(str, 0, head) + '…' + safeSlice(str, str.length - tail, str.length);
}

let ctx2d = null;
const widths = new Map();

// textWidth measures str in a CSS font, with a canvas (no layout of the
// page): what the browser will draw, not a guess per character.
export function textWidth(str, font) {
  const key = font + '\u0000' + str;
  let w = widths.get(key);
  if (w === undefined) {
    ctx2d ||= document.createElement('canvas').getContext('2d');
    ctx2d.font = font;
    w = ctx2d.measureText(str).width;
    if (widths.size > 50000) widths.clear();
    widths.set(key, w);
  }
  return w;
}

// fit is str cut by its middle (cut) to the most characters whose width
// in font is at most px.
export function fit(str, px, font) {
  str = String(str ?? '');
  if (str.length > 400) str = cut(str, 400);
  if (textWidth(str, font) <= px) return str;
  let lo = 0, hi = str.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(cut(str, mid), font) <= px) lo = mid; else hi = mid - 1;
  }
  return cut(str, lo);
}

// shellQuote quotes a word for a POSIX shell when it needs it.
export function shellQuote(w) {
  w = String(w ?? '');
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'";
}

// cli is the command line that prints what a page shows: the cluster is
// a --profile unless it is the default one.
export function cli(cluster, ...words) {
  const profile = cluster && cluster !== 'default' ? ['--profile', cluster] : [];
  return ['kstreams-groups', ...words.map(shellQuote), ...profile.map(shellQuote)].join(' ');
}

// put replaces an element's children, leaving out the absent ones
// (replaceChildren would write null as text).
export function put(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

// clear empties an element.
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// fmtInt writes a count with thousands separators.
export function fmtInt(n) {
  if (n === null || n === undefined) return '–';
  return Number(n).toLocaleString('en-US');
}

// fmtMs writes a duration in ms briefly: 850ms, 12.3s, 4m05s, 2h10m, 3d4h.
export function fmtMs(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return ms + 'ms';
  const sec = ms / 1000;
  if (sec < 60) return sec.toFixed(sec < 10 ? 1 : 0) + 's';
  const m = Math.floor(sec / 60), rs = Math.floor(sec % 60);
  if (m < 60) return m + 'm' + String(rs).padStart(2, '0') + 's';
  const hr = Math.floor(m / 60), rm = m % 60;
  if (hr < 24) return hr + 'h' + String(rm).padStart(2, '0') + 'm';
  return Math.floor(hr / 24) + 'd' + (hr % 24) + 'h';
}

// fmtTime writes an RFC 3339 time as the local clock time.
export function fmtTime(t) {
  if (!t) return '–';
  const d = new Date(t);
  return d.toLocaleTimeString('en-GB', { hour12: false });
}

// statusClass maps a check status or a state to a badge class.
export function badge(text, kind) {
  return h('span', { class: 'badge ' + (kind || badgeKind(text)) }, text || '–');
}

export function badgeKind(text) {
  switch (text) {
    case 'OK': case 'Stable': case 'AVAILABLE': return 'ok';
    case 'WARNING': case 'Reconciling': case 'Assigning': case 'Empty': case 'NOT_STORED': return 'warn';
    case 'CRITICAL': case 'Dead': case 'ERROR': case 'NotReady': return 'crit';
    case 'UNKNOWN': return 'unknown';
    default: return 'plain';
  }
}

// link is a hash route to a group's page; names are encoded, so a name
// can neither leave the fragment nor add a route segment.
export function groupHref(cluster, group) {
  return '#/c/' + encodeURIComponent(cluster) + '/g/' + encodeURIComponent(group);
}

// apiGroup is the API path of a group's documents.
export function apiGroup(cluster, group) {
  return '/api/v1/clusters/' + encodeURIComponent(cluster) + '/groups/' + encodeURIComponent(group);
}
