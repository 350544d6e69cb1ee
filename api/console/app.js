// The console's shell: sign-in (a pasted bearer token, or ?token= in the link `npm start` prints),
// the hash routes (#/ the fleet, #/chargers/<id> one charger, #/scenarios[/<run>] scenario runs,
// #/traffic[/<run>] generated traffic, #/charge-points[/<id>] charge points of the built-in
// central system) and the alerts feed beside them.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { api, token, unauthorized } from './api.js';
import { Fleet } from './fleet.js';
import { Charger } from './charger.js';
import { Alerts } from './alerts.js';
import { ScenarioRun, Scenarios } from './scenarios.js';
import { TrafficRun, TrafficRuns } from './traffic.js';
import { ChargePoint, ChargePoints } from './charge-point.js';

// A token in the link is taken once and removed from the address bar (and from the history).
const fromLink = new URLSearchParams(location.search).get('token');
if (fromLink) {
  token.set(fromLink);
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
}

function SignIn({ onDone, error }) {
  const [value, setValue] = useState('');
  const submit = (e) => {
    e.preventDefault();
    token.set(value.trim());
    onDone();
  };
  return html`<main class="signin">
    <h1>evsim console</h1>
    <form onSubmit=${submit}>
      <label
        >Bearer token
        <textarea
          name="token"
          rows="4"
          placeholder="paste a token (npm start prints one in dev mode; npm run token -- --org ID)"
          value=${value}
          onInput=${(e) => setValue(e.target.value)}
        ></textarea>
      </label>
      ${error && html`<p class="error">${error}</p>`}
      <button type="submit" disabled=${!value.trim()}>Sign in</button>
    </form>
  </main>`;
}

function useRoute() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  const m = /^#\/(chargers|scenarios|traffic|charge-points)(?:\/([^/?]+))?/.exec(hash);
  if (!m || (m[1] === 'chargers' && !m[2])) return { page: 'fleet' };
  return { page: m[1], id: m[2] ? decodeURIComponent(m[2]) : undefined };
}

function page(route) {
  switch (route.page) {
    case 'chargers':
      return html`<${Charger} key=${route.id} id=${route.id} />`;
    case 'scenarios':
      return route.id ? html`<${ScenarioRun} key=${route.id} id=${route.id} />` : html`<${Scenarios} />`;
    case 'charge-points':
      return route.id ? html`<${ChargePoint} key=${route.id} id=${route.id} />` : html`<${ChargePoints} />`;
    case 'traffic':
      return route.id ? html`<${TrafficRun} key=${route.id} id=${route.id} />` : html`<${TrafficRuns} />`;
    default:
      return html`<${Fleet} />`;
  }
}

function App() {
  const [state, setState] = useState(token.get() ? 'checking' : 'signin');
  const [error, setError] = useState('');
  const route = useRoute();

  useEffect(() => {
    const out = () => {
      setError('The token was refused (expired, badly signed or without org_id): sign in again.');
      setState('signin');
    };
    unauthorized.add(out);
    return () => unauthorized.delete(out);
  }, []);

  useEffect(() => {
    if (state !== 'checking') return;
    api('GET', '/evcharger/fleet/summary')
      .then(() => setState('in'))
      .catch((err) => {
        setError(err.message);
        setState('signin');
      });
  }, [state]);

  if (state === 'signin') return html`<${SignIn} error=${error} onDone=${() => setState('checking')} />`;
  if (state === 'checking') return html`<p class="loading">Signing in…</p>`;
  return html`<div class="shell">
    <header>
      <a href="#/" class="brand">evsim</a>
      <nav>
        <a href="#/">Fleet</a>
        <a href="#/scenarios">Scenarios</a>
        <a href="#/traffic">Traffic</a>
        <a href="#/charge-points">Charge points</a>
      </nav>
      <button
        class="link"
        onClick=${() => {
          token.clear();
          setError('');
          setState('signin');
        }}
      >
        Sign out
      </button>
    </header>
    <div class="layout">
      <main>${page(route)}</main>
      <aside><${Alerts} /></aside>
    </div>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
