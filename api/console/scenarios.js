// Scenario runs: start one (a ready scenario from scenarios/, or YAML / JSON pasted), follow its
// steps live (GET /scenario-runs/{id}/events) with the frames that proved or disproved each
// expectation, read the result; the organization's recent runs.
import { useEffect, useState } from 'preact/hooks';
import { html, fmt } from './html.js';
import { api, stream } from './api.js';

/** `NAME=VALUE` lines -> {NAME: VALUE}; blank lines are skipped. */
function variablesOf(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const cut = line.indexOf('=');
    if (line.trim() && cut > 0) out[line.slice(0, cut).trim()] = line.slice(cut + 1).trim();
  }
  return out;
}

function StartScenario() {
  const [ready, setReady] = useState([]);
  const [file, setFile] = useState('');
  const [text, setText] = useState('');
  const [wsUrl, setWsUrl] = useState('');
  const [seed, setSeed] = useState('');
  const [vars, setVars] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api('GET', '/scenarios/ready').then(
      (r) => setReady(r.items),
      (e) => setError(e.message),
    );
  }, []);

  const choose = (f) => {
    setFile(f);
    const s = ready.find((r) => r.file === f);
    if (s) setText(s.text);
  };
  const chosen = ready.find((r) => r.file === file);

  const start = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const variables = variablesOf(vars);
    try {
      const run = await api('POST', '/scenario-runs', {
        scenario: text,
        ...(wsUrl.trim() ? { ws_url: wsUrl.trim() } : {}),
        ...(seed.trim() ? { seed: Number(seed) } : {}),
        ...(Object.keys(variables).length ? { variables } : {}),
      });
      location.hash = `#/scenarios/${run.run_id}`;
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };

  return html`<form class="card deploy start-scenario" onSubmit=${start}>
    <h2>Run a scenario</h2>
    <div class="row">
      <label class="grow"
        >Ready scenario
        <select name="ready" value=${file} onChange=${(e) => choose(e.target.value)}>
          <option value="">— paste your own below, or choose one —</option>
          ${ready.map((r) => html`<option value=${r.file}>${r.file}: ${r.name}</option>`)}
        </select>
      </label>
    </div>
    ${chosen && html`<p class="muted description">${chosen.description}</p>`}
    <label
      >Scenario (YAML or JSON)
      <textarea
        name="scenario"
        rows="14"
        spellcheck="false"
        placeholder="name, chargers, steps: see docs/scenarios.md"
        value=${text}
        onInput=${(e) => setText(e.target.value)}
      ></textarea>
    </label>
    <div class="row">
      <label class="grow"
        >Central system (ws_url; empty: the built-in one)
        <input name="ws_url" value=${wsUrl} onInput=${(e) => setWsUrl(e.target.value)} />
      </label>
      <label
        >Seed
        <input name="seed" inputmode="numeric" value=${seed} onInput=${(e) => setSeed(e.target.value)} />
      </label>
    </div>
    <label
      >Variables (NAME=VALUE, one a line)
      <textarea name="variables" rows="2" value=${vars} onInput=${(e) => setVars(e.target.value)}></textarea>
    </label>
    ${error && html`<p class="error" data-testid="scenario-error">${error}</p>`}
    <button type="submit" disabled=${busy || !text.trim()}>Start the run</button>
  </form>`;
}

function RunList() {
  const [runs, setRuns] = useState([]);
  useEffect(() => {
    api('GET', '/scenario-runs').then(
      (r) => setRuns(r.items),
      () => {},
    );
  }, []);
  if (runs.length === 0) return null;
  return html`<section class="card">
    <h2>Recent runs</h2>
    <table class="runs">
      <thead>
        <tr>
          <th>scenario</th>
          <th>status</th>
          <th>expectations</th>
          <th>started</th>
        </tr>
      </thead>
      <tbody>
        ${runs.map(
          (r) =>
            html`<tr data-run=${r.run_id}>
              <td><a href=${`#/scenarios/${r.run_id}`}>${r.scenario}</a></td>
              <td><span class=${`badge ${r.status}`}>${r.status}</span></td>
              <td>${r.expectations.passed} held, ${r.expectations.failed} failed</td>
              <td>${fmt.time(r.started_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

export function Scenarios() {
  return html`<section class="scenarios">
    <div class="titlebar"><h1>Scenarios</h1></div>
    <${StartScenario} />
    <${RunList} />
  </section>`;
}

/** A frame of a step's proof: who sent what, and its JSON on demand. */
function ProofFrame({ frame }) {
  const [open, setOpen] = useState(false);
  const i = frame.item || {};
  return html`<li
    class=${`frame ${i.direction || ''}`}
    data-action=${i.action || ''}
    data-type=${i.type || ''}
  >
    <button class="link" type="button" onClick=${() => setOpen(!open)}>
      <span class="muted">${fmt.time(i.at)} ${frame.charger}</span>
      <span class="dir">${i.direction === 'out' ? '→' : '←'}</span>
      <b>${i.action || '?'}</b> <span class="type">${i.type}</span>
    </button>
    ${open && html`<pre class="json">${JSON.stringify(i.frame, null, 2)}</pre>`}
  </li>`;
}

function StepRow({ step }) {
  // A failed step shows the frames it saw at once; a passed one on demand.
  const [open, setOpen] = useState(step.status === 'failed');
  useEffect(() => {
    if (step.status === 'failed') setOpen(true);
  }, [step.status]);
  const frames = step.frames || [];
  return html`<li class=${`step ${step.status}`} data-path=${step.path} data-status=${step.status}>
    <div class="step-line">
      <span class="path">${step.path}</span>
      <span class=${`badge ${step.status}`} data-testid="step-status">${step.status}</span>
      <span class="name">${step.name}</span>
      ${
        frames.length > 0 &&
        html`<button class="link" type="button" onClick=${() => setOpen(!open)}>
          ${open ? 'hide' : 'show'} ${frames.length} frame${frames.length === 1 ? '' : 's'}
        </button>`
      }
    </div>
    ${step.message && html`<p class=${step.status === 'failed' ? 'error' : 'muted'}>${step.message}</p>`}
    ${
      open &&
      frames.length > 0 &&
      html`<ol class="frames proof">
        ${frames.map((f) => html`<${ProofFrame} frame=${f} />`)}
      </ol>`
    }
  </li>`;
}

export function ScenarioRun({ id }) {
  const [run, setRun] = useState(null);
  const [error, setError] = useState('');

  useEffect(() => {
    setRun(null);
    let stop = () => {};
    let gone = false;
    api('GET', `/scenario-runs/${id}`).then(
      (r) => {
        if (gone) return;
        setRun(r);
        if (r.status !== 'running') return;
        stop = stream(`/scenario-runs/${id}/events`, (event, data) => {
          const d = JSON.parse(data);
          if (event === 'run') setRun(d);
          else if (event === 'end') {
            setRun(d);
            stop();
          } else if (event === 'step')
            setRun((r) => {
              if (!r) return r;
              const steps = r.steps.slice();
              const i = steps.findIndex((s) => s.path === d.path);
              if (i >= 0) steps[i] = d;
              else steps.push(d);
              return { ...r, steps };
            });
          else if (event === 'charger')
            setRun((r) =>
              r && !r.chargers.some((c) => c.identity === d.identity)
                ? { ...r, chargers: [...r.chargers, d] }
                : r,
            );
        });
      },
      (e) => setError(e.message),
    );
    return () => {
      gone = true;
      stop();
    };
  }, [id]);

  if (error) return html`<p class="error">${error}</p>`;
  if (!run) return html`<p class="loading">Loading the run…</p>`;
  const e = run.expectations;
  return html`<section class="scenario-run" data-run=${run.run_id}>
    <div class="titlebar">
      <h1>${run.scenario}</h1>
      <span class=${`badge ${run.status}`} data-testid="run-status">${run.status}</span>
      ${
        run.status === 'running' &&
        html`<button class="danger" onClick=${() => api('DELETE', `/scenario-runs/${run.run_id}`)}>
          Stop
        </button>`
      }
    </div>
    <p data-testid="run-result">
      ${e.passed} expectation${e.passed === 1 ? '' : 's'} held, ${e.failed} failed${' '}
      ${`· seed ${run.seed} · started ${fmt.time(run.started_at)}`}
      ${run.finished_at ? ` · finished ${fmt.time(run.finished_at)}` : ''}
    </p>
    ${run.error && html`<p class="error">${run.error}</p>`}
    <section class="card">
      <h2>Chargers</h2>
      <ul class="events">
        ${run.chargers.map(
          (c) =>
            html`<li>
              <a href=${`#/chargers/${c.deployment_id}`}>${c.identity}</a>${' '}
              <span class="muted">${c.ocpp_version}, group ${c.group}</span>
            </li>`,
        )}
      </ul>
    </section>
    <section class="card">
      <h2>Steps</h2>
      <ol class="steps" data-testid="steps">
        ${run.steps.map((s) => html`<${StepRow} key=${s.path} step=${s} />`)}
      </ol>
    </section>
    <p><a href="#/scenarios">← all scenario runs</a></p>
  </section>`;
}
