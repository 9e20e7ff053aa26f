// Key metrics of the instance serving the console: /_metrics (Prometheus text) read every few
// seconds, turned into rates between two reads, drawn as small SVG line charts.

const SVG = 'http://www.w3.org/2000/svg';

/** The samples of a Prometheus text scrape: [{name, labels: {...}, value}]. */
export function parsePrometheus(text) {
  const samples = [];
  const line = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (const l of text.split('\n')) {
    if (l.startsWith('#') || l.trim() === '') continue;
    const m = line.exec(l);
    if (!m) continue;
    const labels = {};
    if (m[3]) for (const lm of m[3].matchAll(label)) labels[lm[1]] = lm[2].replace(/\\(.)/g, '$1');
    samples.push({ name: m[1], labels, value: Number(m[4]) });
  }
  return samples;
}

function sum(samples, name, where = () => true) {
  return samples.filter(s => s.name === name && where(s.labels)).reduce((a, s) => a + s.value, 0);
}

function max(samples, name) {
  return samples.filter(s => s.name === name).reduce((a, s) => Math.max(a, s.value), 0);
}

/** The 99th percentile of the requests answered between two scrapes, from the histogram's buckets. */
function p99(before, after) {
  const buckets = new Map();
  for (const s of after) {
    if (s.name === 'tablestream_http_requests_seconds_bucket') {
      buckets.set(s.labels.le, (buckets.get(s.labels.le) || 0) + s.value);
    }
  }
  for (const s of before) {
    if (s.name === 'tablestream_http_requests_seconds_bucket' && buckets.has(s.labels.le)) {
      buckets.set(s.labels.le, buckets.get(s.labels.le) - s.value);
    }
  }
  const bounds = [...buckets.keys()].map(le => [le === '+Inf' ? Infinity : Number(le), buckets.get(le)])
    .sort((a, b) => a[0] - b[0]);
  const total = bounds.length ? bounds[bounds.length - 1][1] : 0;
  if (total <= 0) return 0;
  for (const [le, count] of bounds) if (count >= total * 0.99) return le === Infinity ? NaN : le * 1000;
  return 0;
}

/** The charts: what each shows, computed from two consecutive scrapes {samples, at (ms)}. */
export const CHARTS = [
  { id: 'requests', title: 'Requests answered', unit: '/s',
    value: (a, b, s) => (sum(b, 'tablestream_http_requests_seconds_count') - sum(a, 'tablestream_http_requests_seconds_count')) / s },
  { id: 'errors', title: 'Errors (4xx and 5xx)', unit: '/s',
    value: (a, b, s) => {
      const errors = l => /^[45]/.test(l.status);
      return (sum(b, 'tablestream_http_requests_seconds_count', errors) - sum(a, 'tablestream_http_requests_seconds_count', errors)) / s;
    } },
  { id: 'latency', title: 'Request latency p99', unit: ' ms', value: (a, b) => p99(a, b) },
  { id: 'ingest', title: 'Entity writes appended', unit: '/s',
    value: (a, b, s) => (sum(b, 'tablestream_entity_operations_appended_total') - sum(a, 'tablestream_entity_operations_appended_total')) / s },
  { id: 'applied', title: 'Commands applied', unit: '/s',
    value: (a, b, s) => (sum(b, 'tablestream_commands_applied_total') - sum(a, 'tablestream_commands_applied_total')) / s },
  { id: 'lag', title: 'Apply lag (largest partition)', unit: ' commands', value: (a, b) => max(b, 'tablestream_apply_lag_records') },
  { id: 'heap', title: 'Java heap used', unit: ' MiB',
    value: (a, b) => sum(b, 'jvm_memory_used_bytes', l => l.area === 'heap') / 1048576 },
  { id: 'rocksdb', title: 'RocksDB memory', unit: ' MiB', value: (a, b) => sum(b, 'tablestream_rocksdb_memory_bytes') / 1048576 },
];

function format(v, unit) {
  if (!isFinite(v)) return '—';
  if (Number.isInteger(v)) return v + unit;
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return v.toFixed(digits) + unit;
}

/** A chart: a figure with a title, the latest value, and an SVG line of the last points. */
export class Chart {
  constructor(spec, points = 90) {
    this.spec = spec;
    this.points = points;
    this.values = [];
    this.figure = document.createElement('figure');
    this.figure.className = 'chart';
    this.figure.dataset.chart = spec.id;
    const caption = document.createElement('figcaption');
    this.title = document.createElement('span');
    this.title.textContent = spec.title;
    this.latest = document.createElement('strong');
    this.latest.className = 'latest';
    this.latest.textContent = '—';
    caption.append(this.title, ' ', this.latest);
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.setAttribute('viewBox', '0 0 300 80');
    this.svg.setAttribute('preserveAspectRatio', 'none');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', `${spec.title}: no data yet`);
    this.line = document.createElementNS(SVG, 'polyline');
    this.line.setAttribute('class', 'series');
    this.svg.append(this.line);
    this.figure.append(caption, this.svg);
  }

  add(value) {
    this.values.push(value);
    if (this.values.length > this.points) this.values.shift();
    const finite = this.values.filter(isFinite);
    const top = Math.max(1e-9, ...finite) * 1.1;
    const step = 300 / (this.points - 1);
    const offset = this.points - this.values.length;
    this.line.setAttribute('points', this.values.map((v, i) =>
      `${((offset + i) * step).toFixed(1)},${(78 - (isFinite(v) ? v : 0) / top * 76).toFixed(1)}`).join(' '));
    this.latest.textContent = format(value, this.spec.unit);
    this.svg.setAttribute('aria-label', `${this.spec.title}: ${format(value, this.spec.unit)} now, at most `
      + `${format(Math.max(0, ...finite), this.spec.unit)} in the last ${this.values.length} readings`);
    this.figure.dataset.points = String(this.values.length);
  }
}
