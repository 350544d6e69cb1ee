// The fleet's actions: each row's connector chips and quick actions (start, stop, restart, log),
// and the bulk actions on the selected chargers or on every charger of a location, all through
// POST /evcharger/deployment-runtime-ops (one call per selected charger; one for a location).
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { api } from './api.js';

const label = (a) => a[0].toUpperCase() + a.slice(1);
const kw = (w) => `${(w / 1000).toFixed(1)} kW`;
// Calls in flight at once for a selection: a few, so 500 selected chargers do not queue 500 requests.
const PARALLEL = 6;

/** One chip per connector: its status by colour, and the power while it charges. */
export function ConnectorChips({ connectors, stale }) {
  if (!connectors || connectors.length === 0) return html`<span class="muted">–</span>`;
  // A charger that is not online shows its connectors as last stored, faded.
  return html`<span class=${stale ? 'chips stale' : 'chips'} title=${stale ? 'as last known' : ''}>
    ${connectors.map(
      (c) =>
        html`<span
          class=${`chip status status-${c.status}`}
          data-testid="connector-chip"
          data-status=${c.status}
          title=${`Connector ${c.connector_id}: ${c.status}${c.power_w > 0 ? `, ${kw(c.power_w)}` : ''}`}
          >${c.connector_id}${c.power_w > 0 ? html` <b>${kw(c.power_w)}</b>` : ''}</span
        >`,
    )}
  </span>`;
}

/** A row's quick actions; the answer shows beside them until the stage stream says what followed. */
export function RowActions({ row }) {
  const [op, setOp] = useState(null);
  const runtime = async (action) => {
    setOp({ action, status: 'sending' });
    try {
      await api('POST', '/evcharger/deployment-runtime-ops', { action, deployment_id: row.deployment_id });
      setOp({ action, status: 'accepted' });
    } catch (err) {
      setOp({ action, status: 'error', detail: err.message });
    }
  };
  return html`<span class="row-actions">
    ${['start', 'stop', 'restart'].map(
      (a) =>
        html`<button class="small" title=${`${label(a)} ${row.identity}`} onClick=${() => runtime(a)}>
          ${label(a)}
        </button>`,
    )}
    <a class="small" href=${`#/chargers/${row.deployment_id}`} title=${`${row.identity}'s OCPP log`}>Log</a>
    ${op && html`<span class=${`badge ${op.status}`} title=${op.detail || ''}>${op.action}</span>`}
  </span>`;
}

/**
 * Bulk actions: on the selection (one call per charger, a few at a time), or on every charger of
 * the chosen location (one call, fanned out by the service). Delete asks first.
 */
export function BulkActions({ selected, location, onClear, onDone }) {
  const [progress, setProgress] = useState(null);
  const onSelection = async (action) => {
    const ids = [...selected];
    if (action === 'delete' && !confirm(`Delete ${ids.length} charger${ids.length === 1 ? '' : 's'}?`))
      return;
    const state = { action, done: 0, failed: 0, total: ids.length, errors: [] };
    setProgress({ ...state });
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        try {
          await api('POST', '/evcharger/deployment-runtime-ops', { action, deployment_id: id });
          state.done++;
        } catch (err) {
          state.failed++;
          state.errors.push(err.message);
        }
        setProgress({ ...state });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, ids.length) }, worker));
    if (action === 'delete') onClear();
    onDone();
  };
  const onLocation = async (action) => {
    if (action === 'delete' && !confirm(`Delete every charger of ${location.name} (${location.chargers})?`))
      return;
    setProgress({ action, location: location.name, status: 'sending' });
    try {
      const r = await api('POST', '/evcharger/deployment-runtime-ops', {
        action,
        location_id: location.location_id,
      });
      setProgress({ action, location: location.name, status: 'accepted', detail: r.detail });
    } catch (err) {
      setProgress({ action, location: location.name, status: 'error', detail: err.message });
    }
    onDone();
  };
  const buttons = (run, scope) =>
    ['start', 'stop', 'restart', 'delete'].map(
      (a) =>
        html`<button class=${a === 'delete' ? 'danger' : ''} data-scope=${scope} onClick=${() => run(a)}>
          ${label(a)}
        </button>`,
    );
  return html`<div class="bulk" data-testid="bulk">
    ${
      selected.size > 0 &&
      html`<div class="actions" data-testid="bulk-selection">
        <b>${selected.size} selected</b>${buttons(onSelection, 'selection')}
        <button onClick=${onClear}>Clear selection</button>
      </div>`
    }
    ${
      location &&
      html`<div class="actions" data-testid="bulk-location">
        <b>Every charger of ${location.name} (${location.chargers})</b>${buttons(onLocation, 'location')}
      </div>`
    }
    ${progress && html`<p class="muted" data-testid="bulk-progress">${progressText(progress)}</p>`}
  </div>`;
}

function progressText(p) {
  if (p.location) return `${p.action} ${p.location}: ${p.status}${p.detail ? ` (${p.detail})` : ''}`;
  const errors = p.errors.length ? `; ${p.errors[0]}` : '';
  return `${p.action}: ${p.done} of ${p.total} accepted${p.failed ? `, ${p.failed} refused${errors}` : ''}`;
}
