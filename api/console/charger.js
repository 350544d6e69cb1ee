// One charger: connectors with live status, power, energy and SoC, a power chart, the state
// machine with its current state lit, actions, configuration (secrets come masked), recent stage
// events and the live OCPP log. The detail is re-read when a frame or a stage change of this
// charger arrives (and every 5 s), so only the open charger costs reads.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { api } from './api.js';
import { onStage } from './stages.js';
import { OcppLog } from './ocpp-log.js';
import { MachineDiagram, PowerChart } from './diagram.js';
import { ChargerActions, CommandList, ConnectorActions, useCommands } from './charger-actions.js';

const SAMPLES = 120;

export function Charger({ id }) {
  const [detail, setDetail] = useState(null);
  const [error, setError] = useState('');
  const [machine, setMachine] = useState(null);
  const [events, setEvents] = useState([]);
  const [series, setSeries] = useState([]);
  const [deleted, setDeleted] = useState(false);
  const { list, run } = useCommands();
  const timer = useRef(null);
  const identity = useRef(null);

  const loadDetail = () =>
    api('GET', `/evcharger/deployments/${id}`)
      .then((d) => {
        setDetail(d);
        setError('');
        identity.current = d.identity;
        const t = Date.now();
        setSeries((old) =>
          d.connectors.map((c, i) => ({
            id: c.connector_id,
            points: [...(old[i]?.points || []), { t, w: c.power_w || 0 }].slice(-SAMPLES),
          })),
        );
      })
      .catch((e) => setError(e.status === 404 ? 'This deployment does not exist (any more).' : e.message));
  const loadMachine = () => api('GET', `/evcharger/deployments/${id}/machine`).then(setMachine, () => {});
  const loadEvents = () => {
    if (!identity.current) return;
    api(
      'GET',
      `/evcharger/deployment-runtime-ops/events?identity=${encodeURIComponent(identity.current)}&limit=15`,
    ).then(
      (r) => setEvents(r.events),
      () => {},
    );
  };
  // Bursts of frames cost one read.
  const soon = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      loadDetail();
      loadMachine();
    }, 400);
  };

  useEffect(() => {
    loadDetail().then(loadEvents);
    loadMachine();
    const every = setInterval(() => {
      loadDetail();
      loadMachine();
    }, 5000);
    const off = onStage((c) => {
      if (c.deployment_id !== id) return;
      soon();
      loadEvents();
    });
    return () => {
      clearInterval(every);
      clearTimeout(timer.current);
      off();
    };
  }, [id]);

  if (deleted) return html`<p>Deleted. <a href="#/">Back to the fleet</a></p>`;
  if (!detail) return html`<p class=${error ? 'error' : 'muted'}>${error || 'Loading…'}</p>`;
  return html`<section class="charger">
    <div class="titlebar">
      <h1 data-testid="identity">${detail.identity}</h1>
      <span class=${`stage stage-${detail.stage}`} data-testid="charger-stage">${detail.stage}</span>
      <span class=${`badge ${detail.outcome}`}>${detail.outcome}</span>
      <span class="muted"
        >${detail.model} · ${detail.ocpp_version} · security profile ${detail.security?.profile ?? 0}</span
      >
    </div>
    ${error && html`<p class="error">${error}</p>`}
    <div class="grid">
      <section class="card">
        <h2>Connectors</h2>
        <table class="connectors">
          <thead>
            <tr>
              <th>#</th>
              <th>Status</th>
              <th>Power</th>
              <th>Energy</th>
              <th>SoC</th>
              <th>EV</th>
              <th>Transaction</th>
            </tr>
          </thead>
          <tbody>
            ${detail.connectors.map(
              (c) =>
                html`<tr data-connector=${c.connector_id}>
                    <td>${c.evse_id ? `${c.evse_id}/` : ''}${c.connector_id}</td>
                    <td>
                      <span class=${`status status-${c.status}`} data-testid="connector-status"
                        >${c.status}</span
                      >
                    </td>
                    <td data-testid="power">${fmt.kw(c.power_w)}</td>
                    <td>${fmt.kwh(c.energy_wh)}</td>
                    <td>${fmt.pct(c.soc)}</td>
                    <td>${c.ev_connected ? 'plugged' : '–'}</td>
                    <td>
                      ${c.transaction_id ?? '–'}
                      ${c.id_tag ? html`<span class="muted id-tag">${c.id_tag}</span>` : ''}
                      ${c.cost != null ? html`<span class="muted" data-testid="cost">cost ${c.cost}</span>` : ''}
                    </td>
                  </tr>
                  <tr class="sub">
                    <td colspan="7"><${ConnectorActions} deploymentId=${id} connector=${c} run=${run} /></td>
                  </tr>`,
            )}
          </tbody>
        </table>
        <${CommandList} list=${list} />
      </section>
      <section class="card">
        <h2>Power</h2>
        <${PowerChart} series=${series} />
        <p class="muted">last heartbeat ${fmt.time(detail.last_heartbeat_at) || '–'}</p>
        ${
          detail.display_message
            ? html`<p data-testid="display-message">
                <span class="muted">display (${detail.display_message.priority}):</span>
                ${detail.display_message.content}
              </p>`
            : ''
        }
      </section>
    </div>
    <${ChargerActions} detail=${detail} run=${run} onDeleted=${() => setDeleted(true)} />
    <section class="card">
      <h2>State machine</h2>
      <div class="scroll">
        <${MachineDiagram} machine=${machine?.machine} active=${machine?.active || []} />
      </div>
    </section>
    <div class="grid">
      <${OcppLog} id=${id} onFrame=${soon} />
      <div>
        <section class="card">
          <h2>Stage events</h2>
          <ul class="events" data-testid="stage-events">
            ${events.map(
              (e) =>
                html`<li>
                  <span class="muted">${fmt.time(e.at)}</span> ${e.stage}
                  <span class=${`badge ${e.outcome}`}>${e.outcome}</span> ${e.code || ''}
                  <span class="muted">${e.hint || ''}</span>
                </li>`,
            )}
          </ul>
        </section>
        <section class="card">
          <h2>Configuration</h2>
          <table class="config" data-testid="configuration">
            <tbody>
              ${(detail.configuration || []).map(
                (c) =>
                  html`<tr>
                    <td>${c.key}</td>
                    <td class="value">${c.value}</td>
                    <td class="muted">${c.readonly ? 'read-only' : ''}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  </section>`;
}
