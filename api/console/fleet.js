// The fleet: counts by stage, a searchable table of deployments paged by the service (a fleet of
// 10,000 costs one page), stages and outcomes kept live by the one stage stream, and deploy.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { api } from './api.js';
import { onStage } from './stages.js';
import { DeployForm } from './deploy.js';

const PAGE = 50;
const STAGES = [
  'not_deployed',
  'queued',
  'scheduling',
  'pulling',
  'starting',
  'connecting',
  'registering',
  'online',
  'offline',
  'stopped',
];

/** Runs fn at most once per `ms`, at the end of a burst. */
function useDebounced(fn, ms) {
  const timer = useRef(null);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => () => clearTimeout(timer.current), []);
  return () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, ms);
  };
}

export function Fleet() {
  const [summary, setSummary] = useState(null);
  // The page as read, with the offset it was read at: the range shown is the rows shown.
  const [page, setPage] = useState({ items: [], total: 0, next_offset: null, offset: 0 });
  const [q, setQ] = useState('');
  const [stage, setStage] = useState('');
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState('');
  const [deploying, setDeploying] = useState(false);
  const query = useRef({ q, stage, offset });
  query.current = { q, stage, offset };

  const loadPage = () => {
    const { q, stage, offset } = query.current;
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (q) params.set('q', q);
    if (stage) params.set('stage', stage);
    api('GET', `/evcharger/fleet/deployments?${params}`)
      .then((p) => {
        const now = query.current;
        if (now.q !== q || now.stage !== stage || now.offset !== offset) return; // a newer page was asked
        setPage({ ...p, offset });
        setError('');
      })
      .catch((e) => setError(e.message));
  };
  const loadSummary = () => api('GET', '/evcharger/fleet/summary').then(setSummary, () => {});
  const reloadSummary = useDebounced(loadSummary, 1000);
  const reloadPage = useDebounced(loadPage, 1000);

  // Typing waits for a pause before asking the service.
  useEffect(() => {
    const t = setTimeout(loadPage, q ? 250 : 0);
    return () => clearTimeout(t);
  }, [q, stage, offset]);

  useEffect(() => {
    loadSummary();
    return onStage(
      (c) => {
        reloadSummary();
        setPage((p) => {
          const i = p.items.findIndex((r) => r.deployment_id === c.deployment_id);
          if (i < 0) {
            // A deployment this page does not show yet (new, or now matching the filter).
            reloadPage();
            return p;
          }
          const items = p.items.slice();
          items[i] = {
            ...items[i],
            stage: c.stage,
            outcome: c.outcome,
            code: c.code,
            hint: c.hint,
            updated_at: c.at,
          };
          return { ...p, items };
        });
      },
      () => {
        loadSummary();
        loadPage();
      },
    );
  }, []);

  const pick = (s) => {
    setStage(s === stage ? '' : s);
    setOffset(0);
  };
  const first = page.items.length ? page.offset + 1 : 0;
  const last = page.offset + page.items.length;

  return html`<section class="fleet">
    <div class="titlebar">
      <h1>Fleet</h1>
      <button onClick=${() => setDeploying(!deploying)}>${deploying ? 'Close' : 'Deploy chargers'}</button>
    </div>
    ${
      deploying &&
      html`<${DeployForm}
        onDeployed=${() => {
          loadPage();
          loadSummary();
        }}
      />`
    }
    <div class="counts" data-testid="counts">
      <button class=${`count ${stage === '' ? 'on' : ''}`} onClick=${() => pick('')}>
        <b data-testid="count-total">${summary ? summary.total : '…'}</b><span>all</span>
      </button>
      ${STAGES.filter((s) => summary && summary.stages[s]).map(
        (s) =>
          html`<button class=${`count ${stage === s ? 'on' : ''} stage-${s}`} onClick=${() => pick(s)}>
            <b data-testid=${`count-${s}`}>${summary.stages[s]}</b><span>${s}</span>
          </button>`,
      )}
    </div>
    <div class="filters">
      <input
        type="search"
        name="q"
        placeholder="Search identity or model"
        value=${q}
        onInput=${(e) => {
          setQ(e.target.value);
          setOffset(0);
        }}
      />
      <select
        name="stage"
        value=${stage}
        onChange=${(e) => {
          setStage(e.target.value);
          setOffset(0);
        }}
      >
        <option value="">every stage</option>
        ${STAGES.map((s) => html`<option value=${s}>${s}</option>`)}
      </select>
    </div>
    ${error && html`<p class="error">${error}</p>`}
    <table class="deployments">
      <thead>
        <tr>
          <th>Identity</th>
          <th>Model</th>
          <th>OCPP</th>
          <th>Stage</th>
          <th>Outcome</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        ${page.items.map(
          (r) =>
            html`<tr data-identity=${r.identity}>
              <td><a href=${`#/chargers/${r.deployment_id}`}>${r.identity}</a></td>
              <td>${r.model}</td>
              <td>${r.ocpp_version}</td>
              <td><span class=${`stage stage-${r.stage}`} data-testid="stage">${r.stage}</span></td>
              <td>
                <span class=${`badge ${r.outcome}`} title=${[r.code, r.hint].filter(Boolean).join(': ')}
                  >${r.outcome}</span
                >
              </td>
              <td class="muted">${fmt.time(r.updated_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <div class="pager">
      <button disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>
        Previous
      </button>
      <span data-testid="range">${first}–${last} of ${page.total}</span>
      <button disabled=${page.next_offset === null} onClick=${() => setOffset(page.next_offset)}>Next</button>
    </div>
  </section>`;
}
