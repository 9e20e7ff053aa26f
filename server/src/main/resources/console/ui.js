// The console's small vocabulary for drawing: elements, messages where the user looks, views.

import { ServiceError } from './signing.js';

const main = document.getElementById('main');
const status = document.getElementById('status');
let leaveView = () => {};

/**
 * An element: h('a', {href: '#x', class: 'y'}, 'text', child...). Text is always text, never markup;
 * null, undefined and false children are left out.
 */
export function h(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'value') e.value = v;
    else if (k === 'checked') e.checked = Boolean(v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  return fill(e, ...children);
}

/** Replaces the children of {@code e} with {@code children}, leaving out null, undefined and false (never "null"). */
export function fill(e, ...children) {
  e.replaceChildren(...children.flat(Infinity).filter(c => c !== null && c !== undefined && c !== false));
  return e;
}

/** The message of an error, in words. */
export function describe(error) {
  if (error instanceof ServiceError || error instanceof Error) return error.message;
  return String(error);
}

/** A message in the status line under the header (for what is not tied to one place of the page). */
export function say(message, kind = 'info') {
  status.textContent = message;
  status.className = kind;
}

export function fail(error) {
  say(describe(error), 'error');
}

/**
 * An error shown where the user is looking: {@code where}'s content becomes the message (so nothing
 * stale stays under it), scrolled into view; the status line says it too.
 */
export function failIn(where, error, ...more) {
  const message = describe(error);
  fill(where, h('p', { class: 'error', role: 'alert' }, message), ...more);
  where.scrollIntoView({ block: 'nearest' });
  say(message, 'error');
}

/**
 * A message beside a control (a form's own message line), kept until the next; an error is said in
 * the status line too.
 */
export function note(where, message, kind = 'info') {
  where.textContent = message;
  where.className = `note ${kind}`;
  where.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  if (kind === 'error' && message) {
    where.scrollIntoView({ block: 'nearest' });
    say(message, 'error');
  }
}

/** Shows a view: its heading gets the focus (screen readers announce the new page). */
export function show(title, ...content) {
  leaveView();
  leaveView = () => {};
  document.title = `${title} — Tablestream console`;
  const heading = h('h1', { tabindex: '-1' }, title);
  fill(main, heading, ...content);
  heading.focus();
}

/** What to do when the user leaves the current view (stop timers, close feeds). */
export function onLeave(f) {
  leaveView = f;
}

/** Marks the view {@code view} as drawn (tests wait for it). */
export function ready(view) {
  document.body.dataset.view = view;
  document.body.dataset.ready = String(performance.now());
}

export const enc = encodeURIComponent;

/** A file offered for download, made in the page (nothing leaves the browser). */
export function download(name, parts, type) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/** A count with thousands separators. */
export function count(n) {
  return Number(n).toLocaleString('en-US');
}

/** Seconds as words: 86400 → "1 day", 90 → "90 s". */
export function duration(seconds) {
  const s = Number(seconds);
  const units = [[86400, 'day'], [3600, 'hour'], [60, 'minute']];
  for (const [size, name] of units) {
    if (s >= size && s % size === 0) return `${s / size} ${name}${s / size === 1 ? '' : 's'}`;
  }
  return `${count(s)} s`;
}
