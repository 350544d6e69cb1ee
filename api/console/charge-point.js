// A charge point of the built-in central system (the CPO area): what it reported, its connectors,
// a form that has the central system send it any OCPP call (POST /cpo/charge-points/{id}/calls:
// an action picker with an example payload per action, the payload as JSON, the answer shown) and
// its live OCPP log seen from the central system. #/charge-points opens one by its OCPP identity.
import { useEffect, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { api } from './api.js';
import { OcppLog } from './ocpp-log.js';

const component = { name: 'OCPPCommCtrlr' };
const variable = { name: 'HeartbeatInterval' };

/** The calls offered first, with an example payload each, by OCPP version (2.1 as 2.0.1). */
const PRESETS = {
  'ocpp1.6': {
    RemoteStartTransaction: { connectorId: 1, idTag: 'TAG-001' },
    RemoteStopTransaction: { transactionId: 1 },
    TriggerMessage: { requestedMessage: 'StatusNotification', connectorId: 1 },
    ChangeConfiguration: { key: 'HeartbeatInterval', value: '60' },
    GetConfiguration: { key: ['HeartbeatInterval'] },
    SetChargingProfile: {
      connectorId: 1,
      csChargingProfiles: {
        chargingProfileId: 1,
        stackLevel: 0,
        chargingProfilePurpose: 'TxDefaultProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: {
          chargingRateUnit: 'W',
          chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }],
        },
      },
    },
    Reset: { type: 'Soft' },
    UnlockConnector: { connectorId: 1 },
  },
  'ocpp2.0.1': {
    RequestStartTransaction: {
      evseId: 1,
      remoteStartId: 1,
      idToken: { idToken: 'TAG-001', type: 'ISO14443' },
    },
    RequestStopTransaction: { transactionId: 'TX-1' },
    TriggerMessage: { requestedMessage: 'StatusNotification', evse: { id: 1, connectorId: 1 } },
    SetVariables: { setVariableData: [{ component, variable, attributeValue: '60' }] },
    GetVariables: { getVariableData: [{ component, variable }] },
    SetChargingProfile: {
      evseId: 1,
      chargingProfile: {
        id: 1,
        stackLevel: 0,
        chargingProfilePurpose: 'TxDefaultProfile',
        chargingProfileKind: 'Relative',
        chargingSchedule: [
          { id: 1, chargingRateUnit: 'W', chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] },
        ],
      },
    },
    Reset: { type: 'OnIdle' },
    UnlockConnector: { evseId: 1, connectorId: 1 },
  },
};
const presetsOf = (version) => PRESETS[version === 'ocpp1.6' ? 'ocpp1.6' : 'ocpp2.0.1'];
const OTHER = '';

/** #/charge-points: open a charge point by its OCPP identity. */
export function ChargePoints() {
  const [identity, setIdentity] = useState('');
  const open = (e) => {
    e.preventDefault();
    location.hash = `#/charge-points/${encodeURIComponent(identity.trim())}`;
  };
  return html`<section class="card">
    <h2>Charge points of the built-in central system</h2>
    <p class="muted">
      Charge points registered with <code>POST /cpo/charge-points</code> connect to
      <code>/ocpp/{charge_point_id}</code> on this service.
    </p>
    <form class="row" onSubmit=${open}>
      <input
        name="charge-point-id"
        placeholder="OCPP identity, e.g. CP-001"
        value=${identity}
        onInput=${(e) => setIdentity(e.target.value)}
      />
      <button type="submit" disabled=${!identity.trim()}>Open</button>
    </form>
  </section>`;
}

/** The form for one OCPP call and the last answer. */
function CallForm({ id, version }) {
  const presets = presetsOf(version);
  const first = Object.keys(presets)[0];
  const [picked, setPicked] = useState(first);
  const [other, setOther] = useState('');
  const [payload, setPayload] = useState(JSON.stringify(presets[first], null, 2));
  const [answer, setAnswer] = useState(null);
  const action = picked === OTHER ? other.trim() : picked;

  const pick = (value) => {
    setPicked(value);
    setPayload(value === OTHER ? '{}' : JSON.stringify(presets[value], null, 2));
  };
  const send = async (e) => {
    e.preventDefault();
    let body;
    try {
      body = JSON.parse(payload || '{}');
    } catch (err) {
      setAnswer({ kind: 'error', text: `The payload is not JSON: ${err.message}` });
      return;
    }
    setAnswer({ kind: 'sending', text: `${action}…` });
    try {
      const r = await api('POST', `/cpo/charge-points/${encodeURIComponent(id)}/calls`, {
        action,
        payload: body,
      });
      setAnswer(
        r.error
          ? { kind: 'callerror', label: `CALLERROR ${r.error.code}`, text: JSON.stringify(r.error, null, 2) }
          : { kind: 'callresult', label: 'CALLRESULT', text: JSON.stringify(r.response, null, 2) },
      );
    } catch (err) {
      setAnswer({ kind: 'error', label: `HTTP ${err.status ?? ''}`.trim(), text: err.message });
    }
  };
  const badge = { callresult: 'completed', callerror: 'failed', error: 'error', sending: 'running' };

  return html`<section class="card">
    <h2>Send an OCPP call</h2>
    <form class="call" onSubmit=${send}>
      <div class="row">
        <select name="call-action" value=${picked} onChange=${(e) => pick(e.target.value)}>
          ${Object.keys(presets).map((a) => html`<option value=${a}>${a}</option>`)}
          <option value=${OTHER}>Other action…</option>
        </select>
        ${
          picked === OTHER &&
          html`<input
            name="call-other-action"
            placeholder="action name of this version"
            value=${other}
            onInput=${(e) => setOther(e.target.value)}
          />`
        }
        <button type="submit" disabled=${!action || answer?.kind === 'sending'}>Send</button>
      </div>
      <textarea
        name="call-payload"
        class="json"
        rows="8"
        spellcheck="false"
        value=${payload}
        onInput=${(e) => setPayload(e.target.value)}
      ></textarea>
    </form>
    ${
      answer &&
      html`<div data-testid="call-answer" data-kind=${answer.kind}>
        <span class=${`badge ${badge[answer.kind]}`}>${answer.label || answer.kind}</span>
        <pre class="json">${answer.text}</pre>
      </div>`
    }
  </section>`;
}

export function ChargePoint({ id }) {
  const [cp, setCp] = useState(null);
  const [connectors, setConnectors] = useState([]);
  const [error, setError] = useState('');

  const load = () => {
    const base = `/cpo/charge-points/${encodeURIComponent(id)}`;
    api('GET', base).then(
      (r) => {
        setCp(r);
        setError('');
      },
      (e) => setError(e.status === 404 ? `No charge point '${id}' in your organization.` : e.message),
    );
    api('GET', `${base}/connectors`).then(
      (r) => setConnectors(r.items),
      () => {},
    );
  };
  useEffect(() => {
    load();
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, [id]);

  if (error) return html`<p class="error">${error}</p>`;
  if (!cp) return html`<p class="loading">Loading…</p>`;
  return html`<div class="charge-point">
    <section class="card">
      <h2>
        ${cp.charge_point_id}
        <span class=${`badge ${cp.is_online ? 'completed' : 'stuck'}`} data-testid="cp-online">
          ${cp.is_online ? 'connected' : 'not connected'}
        </span>
      </h2>
      <p class="muted">
        ${cp.ocpp_version || 'version not known yet'} · ${cp.charge_point_vendor || '?'}
        ${cp.charge_point_model || ''} · firmware ${cp.firmware_version || '?'} · last heartbeat
        ${cp.last_heartbeat ? fmt.time(cp.last_heartbeat) : 'none'}
      </p>
      <table>
        <thead>
          <tr>
            <th>EVSE</th>
            <th>Connector</th>
            <th>Status</th>
            <th>Error</th>
            <th>Updated</th>
          </tr>
        </thead>
        <tbody>
          ${connectors.map(
            (c) =>
              html`<tr>
                <td>${c.evse_id}</td>
                <td>${c.connector_id}</td>
                <td>${c.status}</td>
                <td>${c.error_code || ''}</td>
                <td class="muted">${fmt.time(c.updated_at)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>
    ${
      cp.is_online
        ? html`<${CallForm} key=${cp.ocpp_version} id=${id} version=${cp.ocpp_version} />`
        : html`<section class="card">
            <h2>Send an OCPP call</h2>
            <p class="muted">The charge point is not connected: calls can be sent once it is.</p>
          </section>`
    }
    <${OcppLog} path=${`/cpo/charge-points/${encodeURIComponent(id)}/ocpp-log`} seenFrom="csms" />
  </div>`;
}
