// The HTML report: one self-contained page (inline CSS and SVG, no script, no network) with the
// summary, chargers online over time and round-trip latency over time.
import type { LoadtestReport } from './report.ts';
import { summaryText } from './report.ts';

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

interface Series {
  label: string;
  color: string;
  points: [number, number][];
}

const W = 760;
const H = 260;
const PAD = { left: 60, right: 16, top: 16, bottom: 36 };

/** A round step for axis ticks: 1, 2 or 5 times a power of ten. */
function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/** A line chart as an inline SVG element. */
export function lineChart(title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const xMax = Math.max(1, ...xs);
  const yStep = niceStep(Math.max(1, ...ys), 5);
  const yMax = Math.max(yStep, Math.ceil(Math.max(0, ...ys) / yStep) * yStep);
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
  series.forEach((s, i) => {
    if (s.points.length > 0) {
      const d = s.points
        .map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${px(x).toFixed(1)},${py(y).toFixed(1)}`)
        .join('');
      parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    }
    parts.push(
      `<rect x="${PAD.left + 10 + i * 140}" y="${PAD.top}" width="12" height="4" fill="${s.color}"/>`,
      `<text x="${PAD.left + 26 + i * 140}" y="${PAD.top + 6}">${esc(s.label)}</text>`,
    );
  });
  return (
    `<figure><figcaption>${esc(title)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-size="11" font-family="sans-serif">` +
    parts.join('') +
    `</svg></figure>`
  );
}

export function renderHtml(r: LoadtestReport): string {
  const t = r.timeline;
  const online = lineChart('Chargers online over time', 'seconds', 'chargers', [
    { label: 'online', color: '#1a7f37', points: t.map((s) => [s.t, s.online]) },
    {
      label: 'connecting + registering',
      color: '#bf8700',
      points: t.map((s) => [s.t, (s.stages.connecting ?? 0) + (s.stages.registering ?? 0)]),
    },
    { label: 'offline', color: '#cf222e', points: t.map((s) => [s.t, s.stages.offline ?? 0]) },
  ]);
  const latency = lineChart('Round-trip latency over time (all actions, per second)', 'seconds', 'ms', [
    { label: 'p50', color: '#0969da', points: t.filter((s) => s.callsPerSec > 0).map((s) => [s.t, s.p50]) },
    { label: 'p95', color: '#8250df', points: t.filter((s) => s.callsPerSec > 0).map((s) => [s.t, s.p95]) },
  ]);
  const process = lineChart('Engine process', 'seconds', 'MB / % of one core', [
    { label: 'RSS (MB)', color: '#57606a', points: t.map((s) => [s.t, Math.round(s.rss / 1048576)]) },
    { label: 'CPU (%)', color: '#d1242f', points: t.map((s) => [s.t, s.cpu]) },
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
