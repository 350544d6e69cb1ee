// Deploy from a catalog model (one charger: E5 with the identity as typed; several: E7 with a
// charger group named {prefix}001, {prefix}002, ...) or from a location template (E7 with the
// template's body), with ws_url, OCPP version and security profile.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { api } from './api.js';

function securityOf(f) {
  const p = Number(f.profile);
  if (f.profile === '') return undefined;
  const s = { profile: p };
  if (p === 1 || p === 2) s.password = f.password;
  if (p === 2 || p === 3) s.ca_pem = f.ca_pem;
  if (p === 3) Object.assign(s, { client_cert_pem: f.client_cert_pem, client_key_pem: f.client_key_pem });
  // Revocation lists at any profile (TLS, firmware signers); an empty field sends none.
  if (f.crl_pem.trim()) s.crl_pem = f.crl_pem;
  return s;
}

export function DeployForm({ onDeployed }) {
  const [brands, setBrands] = useState([]);
  const [models, setModels] = useState([]);
  const [templates, setTemplates] = useState([]);
  const [f, setF] = useState({
    source: 'model',
    brand: '',
    model: '',
    template: '',
    count: 1,
    identity: 'CP-',
    ws_url: '',
    ocpp_version: '',
    profile: '',
    password: '',
    ca_pem: '',
    crl_pem: '',
    client_cert_pem: '',
    client_key_pem: '',
  });
  const [result, setResult] = useState(null);
  const set = (k) => (e) => setF({ ...f, [k]: e.target.value });

  useEffect(() => {
    api('GET', '/evcharger/catalog?limit=100').then(
      (r) => setBrands(r.data || []),
      () => {},
    );
    api('GET', '/evcharger/templates/locations?include_all=true').then(
      (r) => setTemplates(r.templates),
      () => {},
    );
  }, []);
  useEffect(() => {
    if (!f.brand) return setModels([]);
    api('GET', `/evcharger/catalog/${encodeURIComponent(f.brand)}/models?limit=100`).then(
      (r) => setModels(r.data || []),
      () => setModels([]),
    );
  }, [f.brand]);

  const submit = async (e) => {
    e.preventDefault();
    setResult({ kind: 'busy', text: 'Deploying…' });
    const common = {
      ...(f.ws_url ? { ws_url: f.ws_url } : {}),
      ...(f.ocpp_version ? { ocpp_version: f.ocpp_version } : {}),
      ...(securityOf(f) ? { security: securityOf(f) } : {}),
    };
    try {
      if (f.source === 'template') {
        const t = templates.find((x) => x.slug === f.template);
        const body = structuredClone(t.body);
        if (f.ws_url || securityOf(f))
          for (const g of body.charger_groups || [])
            Object.assign(g, common, { ocpp_version: g.ocpp_version });
        const r = await api('POST', '/evcharger/location', body);
        setResult({ kind: 'ok', text: r.detail });
      } else if (Number(f.count) === 1) {
        const r = await api('POST', '/evcharger/deployment', {
          identity: f.identity,
          model: f.model,
          ...common,
        });
        setResult({ kind: 'ok', text: `Deployed ${r.identity}`, id: r.deployment_id });
      } else {
        const r = await api('POST', '/evcharger/location', {
          name: `Console ${f.identity}`,
          charger_groups: [
            {
              count: Number(f.count),
              identity_prefix: f.identity,
              brand_slug: f.brand,
              model: f.model,
              ...common,
            },
          ],
        });
        setResult({ kind: 'ok', text: r.detail });
      }
      onDeployed();
    } catch (err) {
      setResult({ kind: 'error', text: err.message });
    }
  };

  const p = f.profile === '' ? -1 : Number(f.profile);
  // The versions to choose from are the chosen model's (the catalog's answer), which E5 and E7
  // accept; a template names its chargers' versions itself.
  const chosen = f.source === 'model' ? models.find((m) => m.slug === f.model) : undefined;
  const versions = chosen?.ocpp_versions ?? [];
  return html`<form class="deploy card" onSubmit=${submit}>
    <div class="row">
      <label
        ><input
          type="radio"
          name="source"
          value="model"
          checked=${f.source === 'model'}
          onChange=${set('source')}
        />
        catalog model</label
      >
      <label
        ><input
          type="radio"
          name="source"
          value="template"
          checked=${f.source === 'template'}
          onChange=${set('source')}
        />
        location template</label
      >
    </div>
    ${
      f.source === 'model'
        ? html`<div class="row">
            <label
              >Brand
              <select
                name="brand"
                value=${f.brand}
                onChange=${(e) => setF({ ...f, brand: e.target.value, model: '', ocpp_version: '' })}
              >
                <option value="">choose…</option>
                ${brands.map((b) => html`<option value=${b.slug}>${b.name}</option>`)}
              </select>
            </label>
            <label
              >Model
              <select
                name="model"
                value=${f.model}
                onChange=${(e) => setF({ ...f, model: e.target.value, ocpp_version: '' })}
              >
                <option value="">choose…</option>
                ${models.map((m) => html`<option value=${m.slug}>${m.name}</option>`)}
              </select>
            </label>
            <label
              >Count
              <input name="count" type="number" min="1" max="1000" value=${f.count} onInput=${set('count')}
            /></label>
            <label
              >${Number(f.count) === 1 ? 'Identity' : 'Identity prefix'}
              <input name="identity" value=${f.identity} onInput=${set('identity')}
            /></label>
          </div>`
        : html`<div class="row">
            <label
              >Template
              <select name="template" value=${f.template} onChange=${set('template')}>
                <option value="">choose…</option>
                ${templates.map((t) => html`<option value=${t.slug}>${t.name}</option>`)}
              </select>
            </label>
          </div>`
    }
    <div class="row">
      <label class="grow"
        >ws_url
        <input
          name="ws_url"
          placeholder="empty: the built-in central system"
          value=${f.ws_url}
          onInput=${set('ws_url')}
      /></label>
      <label
        >OCPP
        <select name="ocpp_version" value=${f.ocpp_version} onChange=${set('ocpp_version')}>
          <option value="">model's default</option>
          ${versions.map((v) => html`<option value=${v}>${v.replace(/^ocpp/, '')}</option>`)}
        </select>
      </label>
      <label
        >Security profile
        <select name="profile" value=${f.profile} onChange=${set('profile')}>
          <option value="">default</option>
          ${[0, 1, 2, 3].map((n) => html`<option value=${n}>${n}</option>`)}
        </select>
      </label>
      ${(p === 1 || p === 2) && html`<label>Password <input name="password" type="password" value=${f.password} onInput=${set('password')} /></label>`}
    </div>
    ${(p === 2 || p === 3) && html`<label>CA (PEM) <textarea name="ca_pem" rows="3" value=${f.ca_pem} onInput=${set('ca_pem')}></textarea></label>`}
    ${p >= 0 && html`<label>Revocation lists (PEM, optional) <textarea name="crl_pem" rows="3" value=${f.crl_pem} onInput=${set('crl_pem')}></textarea></label>`}
    ${
      p === 3 &&
      html`<label
          >Client certificate (PEM)
          <textarea
            name="client_cert_pem"
            rows="3"
            value=${f.client_cert_pem}
            onInput=${set('client_cert_pem')}
          ></textarea>
        </label>
        <label
          >Client key (PEM)
          <textarea
            name="client_key_pem"
            rows="3"
            value=${f.client_key_pem}
            onInput=${set('client_key_pem')}
          ></textarea>
        </label>`
    }
    <div class="row">
      <button type="submit" disabled=${f.source === 'model' ? !f.model || !f.identity : !f.template}>
        Deploy
      </button>
      ${
        result &&
        html`<span class=${`result ${result.kind}`} data-testid="deploy-result"
          >${result.text} ${result.id && html`<a href=${`#/chargers/${result.id}`}>open</a>`}</span
        >`
      }
    </div>
  </form>`;
}
