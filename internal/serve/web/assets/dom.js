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

function build(el, attrs, children) {
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (/^on/i.test(k)) throw new Error('event handlers are not attributes: ' + k);
      el.setAttribute(k, v === true ? '' : String(v));
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
    else el.appendChild(document.createTextNode(String(c)));
  }
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
