// The fleet: counts by stage, a searchable table of deployments paged by the service (a fleet of
// 10,000 costs one page) in natural order of identity, each row with its connectors and quick
// actions, bulk actions on a selection or a location, stages and outcomes kept live by the one
// stage stream, and deploy.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { api } from './api.js';
import { onStage } from './stages.js';
import { DeployForm } from './deploy.js';
import { BulkActions, ConnectorChips, RowActions } from './fleet-actions.js';

const PAGE = 50;
// The connectors' status and power change without a stage event: the page shown is read again.
const CONNECTORS_EVERY_MS = 5000;
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
  const [locations, setLocations] = useState([]);
  const [locationId, setLocationId] = useState('');
  const [selected, setSelected] = useState(new Set());
  const query = useRef({ q, stage, offset, locationId });
  query.current = { q, stage, offset, locationId };

  const loadPage = () => {
    const { q, stage, offset, locationId } = query.current;
    const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
    if (q) params.set('q', q);
    if (stage) params.set('stage', stage);
    if (locationId) params.set('location_id', locationId);
    api('GET', `/evcharger/fleet/deployments?${params}`)
      .then((p) => {
        const now = query.current;
        // A newer page was asked.
        if (now.q !== q || now.stage !== stage || now.offset !== offset || now.locationId !== locationId)
          return;
        setPage({ ...p, offset });
        setError('');
      })
      .catch((e) => setError(e.message));
  };
  const loadSummary = () => api('GET', '/evcharger/fleet/summary').then(setSummary, () => {});
  const loadLocations = () =>
    api('GET', '/evcharger/locations?limit=500').then(
      (r) => setLocations(r.items),
      () => {},
    );
  const reloadSummary = useDebounced(loadSummary, 1000);
  const reloadPage = useDebounced(loadPage, 1000);

  // Typing waits for a pause before asking the service.
  useEffect(() => {
    const t = setTimeout(loadPage, q ? 250 : 0);
    return () => clearTimeout(t);
  }, [q, stage, offset, locationId]);

  useEffect(() => {
    loadLocations();
    const t = setInterval(() => document.visibilityState === 'visible' && loadPage(), CONNECTORS_EVERY_MS);
    return () => clearInterval(t);
  }, []);

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
  const location = locations.find((l) => l.location_id === locationId);
  const toggle = (id) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const pageSelected = page.items.length > 0 && page.items.every((r) => selected.has(r.deployment_id));
  const togglePage = () =>
    setSelected((s) => {
      const next = new Set(s);
      for (const r of page.items) {
        if (pageSelected) next.delete(r.deployment_id);
        else next.add(r.deployment_id);
      }
      return next;
    });

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
          loadLocations();
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
      <select
        name="location"
        value=${locationId}
        onFocus=${loadLocations}
        onChange=${(e) => {
          setLocationId(e.target.value);
          setOffset(0);
        }}
      >
        <option value="">every location</option>
        ${locations.map((l) => html`<option value=${l.location_id}>${l.name} (${l.chargers})</option>`)}
      </select>
    </div>
    <${BulkActions}
      selected=${selected}
      location=${location}
      onClear=${() => setSelected(new Set())}
      onDone=${() => {
        loadPage();
        loadSummary();
        loadLocations();
      }}
    />
    ${error && html`<p class="error">${error}</p>`}
    <table class="deployments">
      <thead>
        <tr>
          <th>
            <input
              type="checkbox"
              name="select-page"
              title="Select this page"
              checked=${pageSelected}
              onChange=${togglePage}
            />
          </th>
          <th>Identity</th>
          <th>Model</th>
          <th>OCPP</th>
          <th>Connectors</th>
          <th>Stage</th>
          <th>Outcome</th>
          <th>Updated</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        ${page.items.map(
          (r) =>
            html`<tr key=${r.deployment_id} data-identity=${r.identity}>
              <td>
                <input
                  type="checkbox"
                  name="select"
                  title=${`Select ${r.identity}`}
                  checked=${selected.has(r.deployment_id)}
                  onChange=${() => toggle(r.deployment_id)}
                />
              </td>
              <td><a href=${`#/chargers/${r.deployment_id}`}>${r.identity}</a></td>
              <td>${r.model}</td>
              <td>${r.ocpp_version}</td>
              <td><${ConnectorChips} connectors=${r.connectors} stale=${r.stage !== 'online'} /></td>
              <td><span class=${`stage stage-${r.stage}`} data-testid="stage">${r.stage}</span></td>
              <td>
                <span class=${`badge ${r.outcome}`} title=${[r.code, r.hint].filter(Boolean).join(': ')}
                  >${r.outcome}</span
                >
              </td>
              <td class="muted">${fmt.time(r.updated_at)}</td>
              <td><${RowActions} row=${r} /></td>
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
