// The charger's XState machine drawn as nested boxes (served from the machine's own definition by
// GET /evcharger/deployments/{id}/machine), with the active states lit. Compound states lay their
// children out in rows; the regions of a parallel state are stacked, dashed.
import { html } from './html.js';

const CHAR = 6.6;
const LEAF_H = 24;
const HEAD = 18;
const PAD = 6;
const GAP = 6;
const MAX_ROW = 760;

function layout(node) {
  if (node.states.length === 0) {
    return { node, w: Math.max(node.key.length * CHAR + 16, 40), h: LEAF_H, kids: [] };
  }
  const kids = node.states.map(layout);
  const placed = [];
  let x = PAD;
  let y = HEAD;
  let rowH = 0;
  let w = node.key.length * CHAR + 16;
  for (const k of kids) {
    const stack = node.type === 'parallel';
    if (stack || (x > PAD && x + k.w > MAX_ROW)) {
      if (x > PAD) {
        y += rowH + GAP;
        x = PAD;
        rowH = 0;
      }
    }
    placed.push({ ...k, x, y });
    w = Math.max(w, x + k.w + PAD);
    rowH = Math.max(rowH, k.h);
    if (stack) {
      y += k.h + GAP;
      rowH = 0;
    } else x += k.w + GAP;
  }
  const h = (rowH > 0 ? y + rowH : y - GAP) + PAD;
  // Regions of a parallel state take its whole width.
  if (node.type === 'parallel') for (const p of placed) p.w = w - 2 * PAD;
  return { node, w, h, kids: placed };
}

function Box({ box, x, y, active }) {
  const on = active.has(box.node.id);
  const region = box.node.type === 'parallel';
  const transitions = box.node.transitions.map(
    (t) => `${t.event} → ${t.targets.map((s) => s.split('.').pop()).join(', ')}`,
  );
  return html`<g transform=${`translate(${x},${y})`}>
    <rect
      class=${`state ${on ? 'active' : ''} ${box.kids.length ? 'parent' : 'leaf'} ${region ? 'region' : ''}`}
      data-state=${box.node.id}
      width=${box.w}
      height=${box.h}
      rx="5"
    >
      <title>${[box.node.id, ...transitions].join('\n')}</title>
    </rect>
    <text x="8" y=${box.kids.length ? 13 : 16} class=${on ? 'active' : ''}
      >${box.node.key}${box.node.type === 'parallel' ? ' ∥' : ''}</text
    >
    ${box.kids.map((k) => html`<${Box} box=${k} x=${k.x} y=${k.y} active=${active} />`)}
  </g>`;
}

export function MachineDiagram({ machine, active }) {
  if (!machine) return html`<p class="muted">…</p>`;
  const root = layout(machine);
  const lit = new Set(active);
  return html`<svg
    class="diagram"
    data-testid="diagram"
    viewBox=${`0 0 ${root.w + 2} ${root.h + 2}`}
    width=${root.w + 2}
    height=${root.h + 2}
  >
    <${Box} box=${root} x="1" y="1" active=${lit} />
  </svg>`;
}

/** A small line chart of power (kW) over the last samples, one line per connector. */
export function PowerChart({ series }) {
  const W = 360;
  const H = 110;
  const all = series.flatMap((s) => s.points);
  if (all.length < 2)
    return html`<svg class="chart" data-testid="power-chart" width=${W} height=${H}>
      <text x="10" y="55" class="muted">waiting for samples…</text>
    </svg>`;
  const t0 = Math.min(...all.map((p) => p.t));
  const t1 = Math.max(...all.map((p) => p.t), t0 + 1);
  const max = Math.max(1, ...all.map((p) => p.w));
  const px = (t) => 30 + ((t - t0) / (t1 - t0)) * (W - 40);
  const py = (w) => H - 16 - (w / max) * (H - 36);
  return html`<svg class="chart" data-testid="power-chart" width=${W} height=${H} viewBox=${`0 0 ${W} ${H}`}>
    <line x1="30" y1=${H - 16} x2=${W - 10} y2=${H - 16} class="axis" />
    <text x="2" y="14" class="muted">${(max / 1000).toFixed(1)} kW</text>
    <text x="2" y=${H - 18} class="muted">0</text>
    ${series.map(
      (s, i) =>
        html`<polyline
          class=${`line c${i % 4}`}
          data-points=${s.points.length}
          points=${s.points.map((p) => `${px(p.t).toFixed(1)},${py(p.w).toFixed(1)}`).join(' ')}
        />`,
    )}
  </svg>`;
}
