// Generated traffic: start a run on a location with a seed and its parameters, then follow it
// (status and counts, its newest sessions, each charger linked to its detail), change its speed and
// rates while it runs, stop it. A run is read every 2 s while shown: one request for the whole
// location, however many chargers it has.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { api } from './api.js';

const REFRESH_MS = 2000;

/**
 * The organization's locations by name, every page of them, each with its charger counts as the
 * server keeps them (not counted here from a page of deployments, which hid locations past it).
 */
async function locations() {
  const all = [];
  for (let offset = 0; offset !== null;) {
    const page = await api('GET', `/evcharger/locations?limit=500&offset=${offset}`);
    all.push(...page.items);
    offset = page.next_offset;
  }
  return all;
}

/** A location as the list offers it: its name, its chargers and how many of them run. */
const locationLabel = (l) =>
  `${l.name} (${l.chargers} charger${l.chargers === 1 ? '' : 's'}` +
  (l.running === l.chargers ? ')' : `, ${l.running} running)`);

/** An input bound to one numeric field of a form's state. */
function NumberField({ label, name, state, set, step = 'any' }) {
  return html`<label
    >${label}
    <input
      name=${name}
      type="number"
      step=${step}
      value=${state[name]}
      onInput=${(e) => set({ ...state, [name]: e.target.value })}
    />
  </label>`;
}

/** The numeric fields given (not left empty), as numbers. */
function numbers(state, names) {
  const out = {};
  for (const n of names) if (String(state[n]).trim() !== '') out[n] = Number(state[n]);
  return out;
}

const RATES = ['speed', 'fault_rate_per_hour', 'drop_rate_per_hour'];

function StartTraffic() {
  const [list, setList] = useState([]);
  const [locationId, setLocationId] = useState('');
  const [form, setForm] = useState({
    seed: '1',
    speed: '60',
    start_hour: '8',
    arrivals: '',
    dwell: '90',
    fault_rate_per_hour: '0.01',
    drop_rate_per_hour: '0.02',
    warm_start: false,
  });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    locations().then(
      (l) => {
        setList(l);
        if (l.length) setLocationId(l[0].location_id);
      },
      (e) => setError(e.message),
    );
  }, []);

  const start = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const arrivals = String(form.arrivals).trim();
    try {
      const run = await api('POST', '/traffic-runs', {
        location_id: locationId,
        ...numbers(form, ['seed', 'start_hour', ...RATES]),
        // One number: that many arrivals per connector every hour of the day.
        ...(arrivals ? { arrivals_per_hour: Array(24).fill(Number(arrivals)) } : {}),
        ...(String(form.dwell).trim() ? { dwell_minutes: { mean: Number(form.dwell) } } : {}),
        warm_start: form.warm_start,
      });
      location.hash = `#/traffic/${run.traffic_id}`;
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };

  return html`<form class="card deploy start-traffic" onSubmit=${start}>
    <h2>Start generated traffic</h2>
    <div class="row">
      <label class="grow"
        >Location
        <select name="location" value=${locationId} onChange=${(e) => setLocationId(e.target.value)}>
          ${list.map((l) => html`<option value=${l.location_id}>${locationLabel(l)}</option>`)}
        </select>
      </label>
      <${NumberField} label="Seed" name="seed" state=${form} set=${setForm} step="1" />
      <${NumberField} label="Speed (simulated s per s)" name="speed" state=${form} set=${setForm} />
      <${NumberField} label="Start hour" name="start_hour" state=${form} set=${setForm} />
    </div>
    <div class="row">
      <label
        >Arrivals per connector and hour (empty: a commuter's day)
        <input
          name="arrivals"
          type="number"
          step="any"
          value=${form.arrivals}
          onInput=${(e) => setForm({ ...form, arrivals: e.target.value })}
        />
      </label>
      <${NumberField} label="Mean dwell (min)" name="dwell" state=${form} set=${setForm} />
      <${NumberField}
        label="Faults per charger-hour"
        name="fault_rate_per_hour"
        state=${form}
        set=${setForm}
      />
      <${NumberField} label="Drops per charger-hour" name="drop_rate_per_hour" state=${form} set=${setForm} />
      <label class="check"
        ><input
          name="warm_start"
          type="checkbox"
          checked=${form.warm_start}
          onChange=${(e) => setForm({ ...form, warm_start: e.target.checked })}
        />
        warm start</label
      >
    </div>
    ${error && html`<p class="error" data-testid="traffic-error">${error}</p>`}
    <button type="submit" disabled=${busy || !locationId}>Start traffic</button>
  </form>`;
}

function RunList() {
  const [runs, setRuns] = useState([]);
  useEffect(() => {
    api('GET', '/traffic-runs').then(
      (r) => setRuns(r.items),
      () => {},
    );
  }, []);
  if (runs.length === 0) return null;
  return html`<section class="card">
    <h2>Traffic runs</h2>
    <table class="runs">
      <thead>
        <tr>
          <th>run</th>
          <th>location</th>
          <th>seed</th>
          <th>state</th>
          <th>sessions</th>
        </tr>
      </thead>
      <tbody>
        ${runs.map(
          (r) =>
            html`<tr data-traffic=${r.traffic_id}>
              <td><a href=${`#/traffic/${r.traffic_id}`}>${r.traffic_id.slice(0, 8)}</a></td>
              <td>${r.location_id}</td>
              <td>${r.config.seed}</td>
              <td>${r.running ? 'running' : 'stopped'}</td>
              <td>${r.sessions_started}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

export function TrafficRuns() {
  return html`<section class="traffic">
    <div class="titlebar"><h1>Traffic</h1></div>
    <${StartTraffic} />
    <${RunList} />
  </section>`;
}

const minutes = (s) => `${Math.round(s / 60)} min`;
const clock = (s) => {
  const m = Math.floor(s / 60);
  return `d${Math.floor(m / 1440) + 1} ${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** Seed, speed, started and stopped, in one line. */
const about = (run) =>
  `seed ${run.config.seed} · speed ${run.config.speed} · started ${new Date(run.started_at).toLocaleTimeString()}` +
  (run.stopped_at ? ` · stopped ${new Date(run.stopped_at).toLocaleTimeString()}` : '');

export function TrafficRun({ id }) {
  const [run, setRun] = useState(null);
  const [sessions, setSessions] = useState([]);
  const [chargers, setChargers] = useState(new Map());
  const [change, setChange] = useState(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');

  const load = () =>
    Promise.all([api('GET', `/traffic-runs/${id}`), api('GET', `/traffic-runs/${id}/sessions`)]).then(
      ([r, s]) => {
        setRun(r);
        setSessions(s.items.slice().reverse());
        setChange((c) => c || numbers(r.config, RATES));
        setError('');
        return r;
      },
      (e) => setError(e.message),
    );

  useEffect(() => {
    let timer;
    let gone = false;
    const tick = async () => {
      const r = await load();
      if (!gone && r && r.running) timer = setTimeout(tick, REFRESH_MS);
    };
    tick().then(() => {});
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [id]);

  // Identity -> deployment, to link each session's charger to its detail view.
  useEffect(() => {
    if (!run) return;
    api('GET', `/evcharger/deployments?limit=500&location_id=${encodeURIComponent(run.location_id)}`).then(
      (list) => {
        const items = Array.isArray(list) ? list : list.items || [];
        setChargers(new Map(items.map((d) => [d.identity, d.deployment_id])));
      },
      () => {},
    );
  }, [run && run.location_id]);

  if (error && !run) return html`<p class="error">${error}</p>`;
  if (!run) return html`<p class="loading">Loading the traffic run…</p>`;

  const apply = async (e) => {
    e.preventDefault();
    try {
      setRun(await api('PATCH', `/traffic-runs/${id}`, numbers(change, RATES)));
      setNote('changed');
    } catch (err) {
      setNote(err.message);
    }
  };
  const stop = async () => {
    setRun(await api('DELETE', `/traffic-runs/${id}`));
    load();
  };

  return html`<section class="traffic-run" data-traffic=${run.traffic_id}>
    <div class="titlebar">
      <h1>Traffic on ${run.location_id}</h1>
      <span class=${`badge ${run.running ? 'accepted' : 'stopped'}`} data-testid="traffic-state"
        >${run.running ? 'running' : 'stopped'}</span
      >
      ${run.running && html`<button class="danger" onClick=${stop}>Stop</button>`}
    </div>
    <dl class="counts" data-testid="traffic-counts">
      <div class="count"><b data-testid="sim-time">${run.sim_time}</b><span>simulated time</span></div>
      <div class="count"><b>${run.chargers}</b><span>chargers</span></div>
      <div class="count">
        <b data-testid="sessions-started">${run.sessions_started}</b><span>sessions</span>
      </div>
      <div class="count">
        <b data-testid="sessions-active">${run.sessions_active}</b><span>plugged in</span>
      </div>
      <div class="count"><b>${run.faults}</b><span>faults</span></div>
      <div class="count"><b>${run.drops}</b><span>drops</span></div>
      <div class="count"><b>${run.commands_failed}</b><span>commands failed</span></div>
    </dl>
    <p class="muted">${about(run)}</p>
    ${
      run.running &&
      change &&
      html`<form class="card row change-traffic" onSubmit=${apply}>
        <${NumberField} label="Speed" name="speed" state=${change} set=${setChange} />
        <${NumberField}
          label="Faults per charger-hour"
          name="fault_rate_per_hour"
          state=${change}
          set=${setChange}
        />
        <${NumberField}
          label="Drops per charger-hour"
          name="drop_rate_per_hour"
          state=${change}
          set=${setChange}
        />
        <button type="submit">Change</button>
        ${note && html`<span class="muted" data-testid="change-note">${note}</span>`}
      </form>`
    }
    <section class="card">
      <h2>Sessions <span class="muted">(newest first, ${sessions.length} kept)</span></h2>
      <div class="scroll">
        <table class="sessions" data-testid="sessions">
          <thead>
            <tr>
              <th>arrived</th>
              <th>charger</th>
              <th>connector</th>
              <th>EV</th>
              <th>SoC</th>
              <th>energy</th>
              <th>dwell</th>
              <th>token</th>
            </tr>
          </thead>
          <tbody>
            ${sessions.slice(0, 200).map(
              (s) =>
                html`<tr data-charger=${s.charger}>
                  <td>${clock(s.arrive)}</td>
                  <td>
                    ${
                      chargers.has(s.charger)
                        ? html`<a href=${`#/chargers/${chargers.get(s.charger)}`}>${s.charger}</a>`
                        : s.charger
                    }
                  </td>
                  <td>${s.connector}</td>
                  <td>${s.ev} (${s.battery_kwh} kWh, ${s.ev_max_power_kw} kW)</td>
                  <td>${s.soc_percent} %</td>
                  <td>${s.energy_kwh} kWh</td>
                  <td>${minutes(s.dwell)}</td>
                  <td>
                    <span class=${`badge ${s.token_kind === 'known' ? 'accepted' : 'rejected'}`}
                      >${s.token_kind}</span
                    >
                    ${s.token}
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>
    <p><a href="#/traffic">← all traffic runs</a></p>
  </section>`;
}
