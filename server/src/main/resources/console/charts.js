// Key metrics of the instance serving the console, as time charts (uPlot, served with the console):
// the server keeps the last minutes of them (GET /_metrics/history, read at a fixed interval), so
// a chart shows that history on arrival and then follows it.

/* global uPlot */

const COLORS = ['#1d4ed8', '#d97706', '#b42318', '#059669'];

/** A value with its unit, in as few digits as it needs. */
export function format(v, unit) {
  if (v === null || v === undefined || !isFinite(v)) return '—';
  const a = Math.abs(v);
  const digits = a === 0 || a >= 100 ? 0 : a >= 10 ? 1 : 2;
  const text = a >= 1e6 ? (v / 1e6).toFixed(1) + 'M' : a >= 1e4 ? (v / 1e3).toFixed(1) + 'k' : v.toFixed(digits);
  return `${text} ${unit}`;
}

function tick(v) {
  const a = Math.abs(v);
  if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e3) return (v / 1e3).toFixed(a >= 1e4 ? 0 : 1) + 'k';
  return String(Math.round(v * 100) / 100);
}

/** The latest known value of a line (its last non-null). */
function latest(values) {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null) return values[i];
  return null;
}

/** One chart of the history: a figure with a title, the latest values, and a uPlot time chart. */
export class Chart {
  constructor(spec) {
    this.spec = spec;
    this.figure = document.createElement('figure');
    this.figure.className = 'chart';
    this.figure.dataset.chart = spec.id;
    const caption = document.createElement('figcaption');
    const title = document.createElement('span');
    title.textContent = `${spec.title} (${spec.unit})`;
    this.latest = document.createElement('strong');
    this.latest.className = 'latest';
    this.latest.textContent = '—';
    caption.append(title, ' ', this.latest);
    this.plot = document.createElement('div');
    this.plot.className = 'plot';
    this.plot.setAttribute('role', 'img');
    this.figure.append(caption, this.plot);
    this.uplot = null;
  }

  options(width) {
    const unit = this.spec.unit;
    return {
      width, height: 180,
      scales: { x: { time: true }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      series: [{ value: (u, t) => t === null ? '—' : new Date(t * 1000).toLocaleTimeString() },
        ...this.spec.lines.map((l, i) => ({ label: l.name, stroke: COLORS[i % COLORS.length], width: 1.5,
          spanGaps: false, points: { show: false }, value: (u, v) => format(v, unit) }))],
      axes: [{ stroke: '#59636e', grid: { stroke: '#eef1f4' } },
        { stroke: '#59636e', grid: { stroke: '#eef1f4' }, size: 50, values: (u, ticks) => ticks.map(tick),
          label: unit, labelSize: 18 }],
      cursor: { drag: { x: false, y: false } },
    };
  }

  /** Draws {@code history} ({time: [s...], lines: [{name, values}]} of this chart). */
  update(time, spec) {
    const data = [time, ...spec.lines.map(l => l.values)];
    if (!this.uplot) {
      const width = Math.max(260, this.figure.clientWidth - 24);
      this.uplot = new uPlot(this.options(width), data, this.plot);
      new ResizeObserver(() => {
        const w = Math.max(260, this.figure.clientWidth - 24);
        if (Math.abs(w - this.uplot.width) > 2) this.uplot.setSize({ width: w, height: 180 });
      }).observe(this.figure);
    } else {
      this.uplot.setData(data);
    }
    const now = spec.lines.map(l => `${spec.lines.length > 1 ? l.name + ' ' : ''}${format(latest(l.values), spec.unit)}`);
    this.latest.textContent = now.join(' · ');
    const known = time.length;
    this.figure.dataset.points = String(known);
    const minutes = known > 1 ? Math.round((time[known - 1] - time[0]) / 60) : 0;
    this.plot.setAttribute('aria-label', `${spec.title}: ${now.join(', ')} now; the last ${minutes} minutes`);
  }

  destroy() {
    if (this.uplot) this.uplot.destroy();
  }
}
