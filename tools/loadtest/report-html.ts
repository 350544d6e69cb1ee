// The HTML report: one self-contained page (inline CSS and SVG, no script, no network) with the
// summary, chargers online over time and round-trip latency over time. Samples are drawn as
// taken: counts as steps (held until the next sample), a sample without a value (no call
// answered) as a gap, never a line interpolated across it.
import type { Sample } from './metrics.ts';
import type { LoadtestReport } from './report.ts';
import { summaryText } from './report-text.ts';

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A point of a series; y null = no value at that instant (drawn as a gap, never interpolated). */
export type Point = [x: number, y: number | null];

export interface Series {
  label: string;
  color: string;
  points: Point[];
  /**
   * Counts (chargers online, ...) change between samples by jumps: drawn as steps, each value held
   * until the next sample. Rates and latencies are drawn point to point.
   */
  step?: boolean;
}

const W = 760;
const H = 280;
// The legend has its own row above the plot, so no line runs under it.
const LEGEND_Y = 14;
const PAD = { left: 60, right: 16, top: 30, bottom: 36 };

/** A round step for axis ticks: 1, 2 or 5 times a power of ten. */
function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/** The SVG path of a series: a gap (y null) ends a subpath, so missing data is never drawn. */
export function pathOf(
  points: Point[],
  px: (x: number) => number,
  py: (y: number) => number,
  step = false,
): string {
  let d = '';
  let open = false;
  for (const [x, y] of points) {
    if (y === null) {
      open = false;
      continue;
    }
    const X = px(x).toFixed(1);
    const Y = py(y).toFixed(1);
    if (!open) d += `M${X},${Y}`;
    else d += step ? `H${X}V${Y}` : `L${X},${Y}`;
    open = true;
  }
  return d;
}

/** A line chart as an inline SVG element. */
export function lineChart(title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.flatMap((p) => (p[1] === null ? [] : [p[1]])));
  const xMax = Math.max(1, ...xs);
  const yStep = niceStep(Math.max(1, ...ys), 5);
  // Headroom: the highest line stays below the top grid line.
  const yMax = Math.max(yStep, Math.ceil((Math.max(0, ...ys) * 1.05) / yStep) * yStep);
  const xStep = niceStep(xMax, 8);
  const px = (x: number) => PAD.left + (x / xMax) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - (y / yMax) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [];
  for (let y = 0; y <= yMax + 1e-9; y += yStep) {
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}" stroke="#ddd"/>`,
      `<text x="${PAD.left - 6}" y="${py(y) + 4}" text-anchor="end">${+y.toPrecision(6)}</text>`,
    );
  }
  for (let x = 0; x <= xMax + 1e-9; x += xStep) {
    parts.push(
      `<text x="${px(x)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${+x.toPrecision(6)}</text>`,
    );
  }
  parts.push(
    `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(0)}" y2="${py(0)}" stroke="#888"/>`,
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 4}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text x="12" y="${(PAD.top + H - PAD.bottom) / 2}" transform="rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  let legendX = PAD.left;
  for (const s of series) {
    const d = pathOf(s.points, px, py, s.step);
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    parts.push(
      `<rect class="legend" x="${legendX}" y="${LEGEND_Y - 6}" width="12" height="4" fill="${s.color}"/>`,
      `<text class="legend" x="${legendX + 16}" y="${LEGEND_Y}">${esc(s.label)}</text>`,
    );
    legendX += 28 + s.label.length * 6.5;
  }
  return (
    `<figure><figcaption>${esc(title)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-size="11" font-family="sans-serif">` +
    parts.join('') +
    `</svg></figure>`
  );
}

/**
 * Points of one value per sample. Each sample covers the time since the one before (`dt`, longer
 * than its interval when the event loop was busy), so nothing between two samples is missing; a
 * sample with nothing to show (`value` null, e.g. no call answered: no latency) is a gap.
 */
export function seriesOf(t: Sample[], value: (s: Sample) => number | null): Point[] {
  return t.map((s) => [s.t, value(s)]);
}

const PROCESS_TITLE: Record<LoadtestReport['cpu']['of'], string> = {
  engine: 'Engine process',
  'engine nodes': 'Engine processes (summed)',
  service: 'Service process (by its pid)',
  'load-test process': 'Load-test process',
};

export function renderHtml(r: LoadtestReport): string {
  const t = r.timeline;
  const online = lineChart('Chargers online over time', 'seconds', 'chargers', [
    { label: 'online', color: '#1a7f37', step: true, points: seriesOf(t, (s) => s.online) },
    {
      label: 'connecting + registering',
      color: '#bf8700',
      step: true,
      points: seriesOf(t, (s) => (s.stages.connecting ?? 0) + (s.stages.registering ?? 0)),
    },
    { label: 'offline', color: '#cf222e', step: true, points: seriesOf(t, (s) => s.stages.offline ?? 0) },
  ]);
  // A sample without an answered call has no latency: a gap, not a line to the next one.
  const latencyOf = (pick: (s: Sample) => number) => (s: Sample) => (s.callsPerSec > 0 ? pick(s) : null);
  const latency =
    r.mode === 'via-api'
      ? '<p>Round trips happen inside the service with <code>--via-api</code>: not measured here.</p>'
      : lineChart('Round-trip latency over time (all actions, per sample)', 'seconds', 'ms', [
          {
            label: 'p50',
            color: '#0969da',
            points: seriesOf(
              t,
              latencyOf((s) => s.p50),
            ),
          },
          {
            label: 'p95',
            color: '#8250df',
            points: seriesOf(
              t,
              latencyOf((s) => s.p95),
            ),
          },
        ]);
  const process =
    r.cpu.of === 'load-test process'
      ? '<p>The chargers run inside the service with <code>--via-api</code>, whose process was not found on this machine (give <code>--service-pid</code>): its memory and CPU are not shown.</p>'
      : lineChart(PROCESS_TITLE[r.cpu.of], 'seconds', 'MB / % of one core', [
          { label: 'RSS (MB)', color: '#57606a', points: seriesOf(t, (s) => Math.round(s.rss / 1048576)) },
          { label: 'CPU (%)', color: '#d1242f', points: seriesOf(t, (s) => s.cpu) },
        ]);
  const ok = r.checks.every((c) => c.ok);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load test: ${r.chargers} chargers</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:820px;color:#1f2328}
pre{background:#f6f8fa;padding:1em;overflow-x:auto;font-size:12px}
figure{margin:1.5em 0}figcaption{font-weight:bold;margin-bottom:.3em}
.ok{color:#1a7f37}.fail{color:#cf222e}
</style></head><body>
<h1>Load test: ${r.chargers} chargers <span class="${ok ? 'ok' : 'fail'}">${ok ? 'passed' : 'failed'}</span></h1>
<p>Started ${esc(r.startedAt)}.</p>
${online}
${latency}
${process}
<h2>Summary</h2>
<pre>${esc(summaryText(r))}</pre>
</body></html>
`;
}
