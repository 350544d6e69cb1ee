// What an operator can do to one charger: the EV and fault commands per connector, disconnect,
// change configuration and a raw OCPP message (E11-E15 and the EV commands, each followed to its
// final status through E16), and stop / start / restart / delete (E9).
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { api, command } from './api.js';

let counter = 0;

export function useCommands() {
  const [list, setList] = useState([]);
  const update = (n, patch) => setList((l) => l.map((c) => (c.n === n ? { ...c, ...patch } : c)));
  const run = async (label, path, deploymentId, payload) => {
    const n = ++counter;
    setList((l) => [{ n, label, status: 'sending' }, ...l].slice(0, 12));
    try {
      const record = await command(path, deploymentId, payload, (status, rec) =>
        update(n, { status, record: rec }),
      );
      if (!record) update(n, { status: 'still open' });
    } catch (err) {
      update(n, { status: 'error', error: err.message });
    }
  };
  return { list, run };
}

export function CommandList({ list }) {
  if (list.length === 0) return null;
  return html`<ul class="commands" data-testid="commands">
    ${list.map(
      (c) =>
        html`<li data-label=${c.label}>
          ${c.label} <span class=${`badge ${c.status}`} data-testid="command-status">${c.status}</span>
          ${c.error && html`<span class="error">${c.error}</span>`}
          ${
            c.record &&
            (c.record.response || c.record.error) &&
            html`<code class="muted">${JSON.stringify(c.record.error || c.record.response)}</code>`
          }
        </li>`,
    )}
  </ul>`;
}

export function ConnectorActions({ deploymentId, connector, run }) {
  const [tag, setTag] = useState('TAG-001');
  const target = {
    connector_id: connector.connector_id,
    ...(connector.evse_id ? { evse_id: connector.evse_id } : {}),
  };
  const go =
    (label, path, extra = {}) =>
    () =>
      run(`${label} #${connector.connector_id}`, path, deploymentId, { ...target, ...extra });
  return html`<div class="actions" data-connector=${connector.connector_id}>
    <button onClick=${go('plug in', 'plug-in')}>Plug in</button>
    <input class="tag" name="id_tag" value=${tag} onInput=${(e) => setTag(e.target.value)} />
    <button onClick=${go('present token', 'present-token', { id_tag: tag })}>Present token</button>
    <button onClick=${go('EV stops energy', 'ev-stops-energy')}>EV stops energy</button>
    <button onClick=${go('unplug', 'unplug')}>Unplug</button>
    <button onClick=${go('fault', 'fault')}>Fault</button>
    <button onClick=${go('clear fault', 'clear-fault')}>Clear fault</button>
  </div>`;
}

export function ChargerActions({ detail, run, onDeleted }) {
  const [op, setOp] = useState(null);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [rawAction, setRawAction] = useState('DataTransfer');
  const [rawPayload, setRawPayload] = useState('{"vendorId": "evsim"}');
  const [rawError, setRawError] = useState('');
  const id = detail.deployment_id;

  const runtime = async (action) => {
    if (action === 'delete' && !confirm(`Delete ${detail.identity}?`)) return;
    setOp({ action, status: 'sending' });
    try {
      const r = await api('POST', '/evcharger/deployment-runtime-ops', { action, deployment_id: id });
      setOp({ action, status: 'accepted', detail: r.detail });
      if (action === 'delete') onDeleted();
    } catch (err) {
      setOp({ action, status: 'error', detail: err.message });
    }
  };
  const configure = (e) => {
    e.preventDefault();
    const payload =
      key.includes('.') && detail.ocpp_version !== 'ocpp1.6'
        ? { component: key.split('.')[0], variable: key.split('.').slice(1).join('.'), value }
        : { key, value };
    run(`configure ${key}`, 'configuration', id, payload);
  };
  const raw = (e) => {
    e.preventDefault();
    let payload;
    try {
      payload = JSON.parse(rawPayload || '{}');
      setRawError('');
    } catch (err) {
      setRawError(`payload is not JSON: ${err.message}`);
      return;
    }
    run(`raw ${rawAction}`, 'proxy-message', id, { action: rawAction, payload });
  };

  return html`<section class="card">
    <h2>Actions</h2>
    <div class="actions">
      ${['stop', 'start', 'restart', 'delete'].map(
        (a) =>
          html`<button class=${a === 'delete' ? 'danger' : ''} onClick=${() => runtime(a)}>
            ${a[0].toUpperCase() + a.slice(1)}
          </button>`,
      )}
      <button onClick=${() => run('disconnect', 'disconnect', id, {})}>Disconnect</button>
      ${op && html`<span class=${`badge ${op.status}`} data-testid="runtime-status" title=${op.detail || ''}>${op.action}: ${op.status}</span>`}
    </div>
    <form class="row" onSubmit=${configure}>
      <input
        name="config-key"
        placeholder="key or Component.Variable"
        list="config-keys"
        value=${key}
        onInput=${(e) => setKey(e.target.value)}
      />
      <datalist id="config-keys">
        ${(detail.configuration || []).filter((c) => !c.readonly).map((c) => html`<option value=${c.key} />`)}
      </datalist>
      <input
        name="config-value"
        placeholder="value"
        value=${value}
        onInput=${(e) => setValue(e.target.value)}
      />
      <button type="submit" disabled=${!key}>Change configuration</button>
    </form>
    <form class="row" onSubmit=${raw}>
      <input
        name="raw-action"
        placeholder="action"
        value=${rawAction}
        onInput=${(e) => setRawAction(e.target.value)}
      />
      <input
        class="grow"
        name="raw-payload"
        value=${rawPayload}
        onInput=${(e) => setRawPayload(e.target.value)}
      />
      <button type="submit" disabled=${!rawAction}>Send OCPP message</button>
      ${rawError && html`<span class="error">${rawError}</span>`}
    </form>
  </section>`;
}
