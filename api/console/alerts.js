// E10's alerts feed (failed, stuck, recovered stage events), refreshed when the stage stream
// brings one.
import { useEffect, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { api } from './api.js';
import { onStage } from './stages.js';

const ALERT = ['failed', 'stuck', 'recovered'];

export function Alerts() {
  const [events, setEvents] = useState([]);
  const [error, setError] = useState('');
  useEffect(() => {
    let timer = null;
    const load = () =>
      api('GET', '/evcharger/deployment-runtime-ops/events?outcome=alerts&limit=30')
        .then((r) => {
          setEvents(r.events);
          setError('');
        })
        .catch((e) => setError(e.message));
    load();
    const off = onStage((c) => {
      if (!ALERT.includes(c.outcome) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        load();
      }, 500);
    }, load);
    return () => {
      off();
      clearTimeout(timer);
    };
  }, []);
  return html`<section class="alerts">
    <h2>Alerts</h2>
    ${error && html`<p class="error">${error}</p>`}
    ${events.length === 0 && !error && html`<p class="muted">No failed, stuck or recovered stages.</p>`}
    <ul>
      ${events.map(
        (e) =>
          html`<li class=${`alert ${e.outcome}`}>
            <b>${e.identity}</b> ${e.stage} <span class="badge ${e.outcome}">${e.outcome}</span>
            <div class="muted">${fmt.time(e.at)} ${e.code || ''} ${e.hint || ''}</div>
          </li>`,
      )}
    </ul>
  </section>`;
}
