// A live OCPP log (GET .../ocpp-log/stream, the newest 100 replayed first): a virtual charger's by
// default, or a CPO charge point's seen from the built-in central system (`path`, `seenFrom`);
// filters by direction, type and action, and each frame expands to its JSON.
import { useEffect, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { stream } from './api.js';

const KEEP = 500;

/** What `out` and `in` mean, by whose log it is. */
const DIRECTIONS = {
  charger: { out: 'out (sent by the charger)', in: 'in (from the central system)' },
  csms: { out: 'out (sent by the central system)', in: 'in (from the charge point)' },
};

export function OcppLog({
  id,
  onFrame,
  path = `/evcharger/deployments/${id}/ocpp-log`,
  seenFrom = 'charger',
}) {
  const [items, setItems] = useState([]);
  const [open, setOpen] = useState(() => new Set());
  const [direction, setDirection] = useState('');
  const [type, setType] = useState('');
  const [action, setAction] = useState('');

  useEffect(() => {
    setItems([]);
    const seen = new Set();
    return stream(`${path}/stream?replay=100`, (event, data) => {
      if (event !== 'frame') return;
      const item = JSON.parse(data);
      // A reconnection replays frames already shown.
      if (seen.has(item.id)) return;
      seen.add(item.id);
      setItems((list) => [item, ...list].slice(0, KEEP));
      if (onFrame) onFrame(item);
    });
  }, [path]);

  const a = action.trim().toLowerCase();
  const shown = items.filter(
    (i) =>
      (!direction || i.direction === direction) &&
      (!type || i.type === type) &&
      (!a || (i.action || '').toLowerCase().includes(a)),
  );
  const toggle = (itemId) => {
    const next = new Set(open);
    if (next.has(itemId)) next.delete(itemId);
    else next.add(itemId);
    setOpen(next);
  };

  return html`<section class="card log">
    <h2>OCPP log <span class="muted">(live)</span></h2>
    <div class="filters">
      <select name="log-direction" value=${direction} onChange=${(e) => setDirection(e.target.value)}>
        <option value="">in and out</option>
        <option value="out">${DIRECTIONS[seenFrom].out}</option>
        <option value="in">${DIRECTIONS[seenFrom].in}</option>
      </select>
      <select name="log-type" value=${type} onChange=${(e) => setType(e.target.value)}>
        <option value="">every type</option>
        <option>CALL</option>
        <option>CALLRESULT</option>
        <option>CALLERROR</option>
      </select>
      <input
        name="log-action"
        placeholder="action"
        value=${action}
        onInput=${(e) => setAction(e.target.value)}
      />
      <span class="muted">${shown.length} of ${items.length}</span>
    </div>
    <ol class="frames" data-testid="ocpp-log">
      ${shown.map(
        (i) =>
          html`<li
            class=${`frame ${i.direction} ${i.error ? 'invalid' : ''}`}
            data-action=${i.action || ''}
            data-type=${i.type || ''}
          >
            <button class="link" onClick=${() => toggle(i.id)}>
              <span class="muted">${fmt.time(i.at)}</span>
              <span class="dir">${i.direction === 'out' ? '→' : '←'}</span>
              <b>${i.action || '?'}</b> <span class="type">${i.type}</span>
              ${i.error && html`<span class="badge failed" title=${i.error}>schema</span>`}
            </button>
            ${
              open.has(i.id) &&
              html`<pre class="json">
${JSON.stringify(i.frame, null, 2)}${i.error ? `\n\n${i.error}` : ''}</pre>`
            }
          </li>`,
      )}
    </ol>
  </section>`;
}
