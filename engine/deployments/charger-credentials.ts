// Credentials of the virtual chargers this process runs: sealing what E5 / E7 give, issuing them
// at the built-in central system, and handing each connection attempt its settings.
//
// Per connection attempt the link asks `settingsFor(deploymentId)`. The sealed value of each
// charger is kept in memory once read (chargers that resume together are read with one query per
// batch) and opened per attempt: opening is an AES-GCM decryption of a few hundred bytes, so the
// clear secrets live only as long as the attempt needs them. A refused attempt (HTTP_401,
// HTTP_403, TLS_ERROR) drops the cached value, so the next one reads what another node or process
// may have written meanwhile.
//
// The seam for the charger's own changes (1.6 ChangeConfiguration AuthorizationKey /
// SecurityProfile, 2.0.1 BasicAuthPassword / SetNetworkProfile): `update()` seals and stores
// new secrets for a deployment and takes effect at its next connection attempt. The charger's
// security block asks through `securityRequest()`: `apply` seals and stores the new password /
// profile / URL at once (the next attempt uses them, a restart keeps them) and keeps the previous
// ones in memory until the charger says `confirm` (its connection opened) or `revert` (it failed).
import { networkInterfaces } from 'node:os';
import type { ChargePointStore } from '../cpo/charge-point-store.ts';
import type { SettingsLookup } from '../charger/charger-runtime.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
import type { SecurityRequest, SecurityResult } from '../../actors/charger/charger-ports.ts';
import { certificateRequest, installCa, removeCa, signedCertificate } from './charger-certificates.ts';
import {
  connectionSettingsOf,
  openSecrets,
  sealSecrets,
  sealSecurity,
  type ChargerSecrets,
  type ChargerSecurity,
  type SealedSecurity,
  type SecurityProfile,
} from './charger-security.ts';

interface Entry {
  orgId: string;
  identity: string;
  /** Connects to the built-in central system (no ws_url): credentials are issued for it. */
  builtin: boolean;
  sealed: string | null;
  profile: SecurityProfile;
  wsUrl: string | null;
}

type Waiter = { resolve: (e: Entry | undefined) => void; reject: (err: unknown) => void };

export interface ChargerCredentialsDeps {
  db: Queryable;
  box: SecretBox;
  chargePoints: ChargePointStore;
  log: Logger;
  /** The built-in central system's OCPP base URL (ws://host:port/ocpp), known once listening. */
  csmsUrl: () => string | undefined;
  /** PUBLIC_URL, under which users may also reach the built-in endpoint. */
  publicUrl?: string;
}

/** Connection failures after which the cached secrets may be stale. */
const REFUSED = new Set(['HTTP_401', 'HTTP_403', 'TLS_ERROR']);

export class ChargerCredentials {
  readonly #cache = new Map<string, Entry>();
  /** Credentials changed by their charger, until its next connection opens: what to go back to. */
  readonly #previous = new Map<string, Entry>();
  /** Changes being written: a connection attempt meanwhile waits for them. */
  readonly #changing = new Map<string, Promise<unknown>>();
  #waiting = new Map<string, Waiter[]>();
  #loading = false;

  constructor(private readonly d: ChargerCredentialsDeps) {
    d.chargePoints.handOverCredentials({
      seal: (orgId, identity, password) => sealSecrets(d.box, orgId, identity, 1, { password }).sealed!,
      handedOver: (orgId, identity, sealed, ids) => {
        for (const id of ids)
          this.#cache.set(id, { orgId, identity, builtin: true, sealed, profile: 1, wsUrl: null });
      },
    });
  }

  /** The sealed form of what a request gave, for the deployment row (and a location job). */
  seal(orgId: string, identity: string, security: ChargerSecurity): SealedSecurity {
    return sealSecurity(this.d.box, orgId, identity, security);
  }

  /**
   * Issues the credentials of a new deployment at the built-in central system: the hash for the
   * central system, the password sealed into the deployment (one statement). false when the
   * charge point is not the organization's.
   */
  async issueBuiltIn(orgId: string, identity: string): Promise<boolean> {
    return (await this.d.chargePoints.issueCredentials(orgId, identity)) !== undefined;
  }

  /**
   * Whether `wsUrl` is this service's own OCPP endpoint and another organization registered the
   * identity there: deploying it would connect as that organization's charge point. (The upgrade
   * refuses such a charger anyway, with 401: it has no credentials.)
   */
  async takesOver(orgId: string, identity: string, wsUrl: string): Promise<boolean> {
    if (!this.#isOwnEndpoint(wsUrl)) return false;
    const owner = await this.d.chargePoints.ownerOf(identity);
    return owner !== undefined && owner !== orgId;
  }

  /** What the link of deployment `id` connects with, now. */
  settingsFor(deploymentId: string | undefined): SettingsLookup {
    if (deploymentId === undefined) return undefined;
    const changing = this.#changing.get(deploymentId);
    if (changing) return changing.then(() => this.settingsFor(deploymentId));
    const entry = this.#cache.get(deploymentId);
    if (entry) return this.#settings(entry);
    return this.#load(deploymentId).then((e) => e && this.#settings(e));
  }

  /** A connection attempt of the deployment failed with `code`. */
  connectFailed(deploymentId: string | undefined, code: string): void {
    if (deploymentId === undefined) return;
    if (REFUSED.has(code)) this.#cache.delete(deploymentId);
    // The first connection with settings the charger was just given failed: back to the previous ones.
    if (this.#previous.has(deploymentId)) this.#track(deploymentId, 'revert', this.#revert(deploymentId));
  }

  /** The deployment is gone. */
  forget(deploymentId: string): void {
    this.#cache.delete(deploymentId);
  }

  /**
   * New secrets for a deployment (sealed, stored, used from its next connection attempt): the
   * seam for the charger's own credential and profile changes. false when there is no such row.
   */
  async update(
    deploymentId: string,
    profile: SecurityProfile,
    secrets: ChargerSecrets,
    q: Queryable = this.d.db,
  ): Promise<boolean> {
    const { rows } = await q.query<{
      organization_id: string;
      identity: string;
      builtin: boolean;
      ws_url: string | null;
    }>(
      'SELECT organization_id, identity, ws_url IS NULL AS builtin, ws_url FROM evc_deployments WHERE id = $1',
      [deploymentId],
    );
    const row = rows[0];
    if (!row) return false;
    const sealed = sealSecrets(this.d.box, row.organization_id, row.identity, profile, secrets);
    await q.query(
      `UPDATE evc_deployments SET security_profile = $2, security_has_password = $3, security_has_client_cert = $4,
         security_sealed = $5, updated_at = now() WHERE id = $1`,
      [deploymentId, profile, sealed.has_password, sealed.has_client_cert, sealed.sealed],
    );
    this.#cache.set(deploymentId, {
      orgId: row.organization_id,
      identity: row.identity,
      builtin: row.builtin,
      sealed: sealed.sealed,
      profile,
      wsUrl: row.ws_url,
    });
    return true;
  }

  /**
   * What a charger's security block asks (never throws: a failure is logged and the charger's
   * next connection shows it). `apply` takes effect at once in this process and is written behind.
   */
  securityRequest(
    deploymentId: string | undefined,
    request: SecurityRequest,
    reply: (result: SecurityResult) => void = () => undefined,
  ): void {
    if (deploymentId === undefined) return;
    if (request.op === 'confirm') {
      this.#previous.delete(deploymentId);
      return;
    }
    const work =
      request.op === 'apply'
        ? this.#apply(deploymentId, request)
        : this.#certificates(deploymentId, request, reply);
    this.#track(deploymentId, request.op, work);
  }

  /** A change being written: connection attempts and later changes wait for it; a failure is logged. */
  #track(deploymentId: string, what: string, work: Promise<void>): void {
    const done = work
      .catch((err: unknown) =>
        this.d.log.error({ deploymentId, what, err }, 'the charger credentials could not be changed'),
      )
      .finally(() => {
        if (this.#changing.get(deploymentId) === done) this.#changing.delete(deploymentId);
      });
    this.#changing.set(deploymentId, done);
  }

  async #apply(deploymentId: string, change: Extract<SecurityRequest, { op: 'apply' }>): Promise<void> {
    await this.#changing.get(deploymentId);
    const entry = this.#cache.get(deploymentId) ?? (await this.#load(deploymentId));
    if (!entry) return;
    if (!this.#previous.has(deploymentId)) this.#previous.set(deploymentId, entry);
    const secrets = entry.sealed ? openSecrets(this.d.box, entry.orgId, entry.identity, entry.sealed) : {};
    if (change.password !== undefined) secrets.password = change.password;
    const profile = change.profile as SecurityProfile;
    const sealed = sealSecrets(this.d.box, entry.orgId, entry.identity, profile, secrets);
    const next: Entry = { ...entry, sealed: sealed.sealed, profile, wsUrl: change.url ?? entry.wsUrl };
    this.#cache.set(deploymentId, next);
    await this.#store(deploymentId, next, sealed);
  }

  /** Keys, CSRs and certificates: made and checked here, kept in the sealed secrets. */
  async #certificates(
    deploymentId: string,
    request: Exclude<SecurityRequest, { op: 'apply' | 'confirm' }>,
    reply: (result: SecurityResult) => void,
  ): Promise<void> {
    await this.#changing.get(deploymentId);
    const entry = this.#cache.get(deploymentId) ?? (await this.#load(deploymentId));
    if (!entry) return;
    const secrets = entry.sealed ? openSecrets(this.d.box, entry.orgId, entry.identity, entry.sealed) : {};
    let result: SecurityResult | undefined;
    if (request.op === 'csr') {
      const made = await certificateRequest(entry.identity);
      secrets.pending_key_pem = made.keyPem;
      result = { type: 'security.csr', csr: made.csrPem };
    } else if (request.op === 'certificate') {
      const checked = signedCertificate(request.pem, secrets.pending_key_pem);
      if (typeof checked === 'string') {
        reply({ type: 'security.certificate', ok: false, reason: checked });
        return;
      }
      secrets.client_cert_pem = request.pem;
      secrets.client_key_pem = secrets.pending_key_pem;
      delete secrets.pending_key_pem;
      result = { type: 'security.certificate', ok: true };
    } else if (request.op === 'install') {
      const installed = installCa(secrets.ca_pem, request.pem);
      if (typeof installed === 'string') {
        reply({ type: 'security.installed', certificateType: request.certificateType, reason: installed });
        return;
      }
      // Only the central system's root is trusted for the connection; other roots are only listed.
      if (/CentralSystemRoot|CSMSRoot/.test(request.certificateType)) secrets.ca_pem = installed.bundle;
      result = {
        type: 'security.installed',
        certificateType: request.certificateType,
        hashData: installed.hashData,
      };
    } else {
      const rest = removeCa(secrets.ca_pem, request.hashData);
      if (rest === secrets.ca_pem) return;
      if (rest === undefined) delete secrets.ca_pem;
      else secrets.ca_pem = rest;
    }
    const sealed = sealSecrets(this.d.box, entry.orgId, entry.identity, entry.profile, secrets);
    const next: Entry = { ...entry, sealed: sealed.sealed };
    this.#cache.set(deploymentId, next);
    await this.#store(deploymentId, next, sealed);
    if (result) reply(result);
  }

  async #revert(deploymentId: string): Promise<void> {
    await this.#changing.get(deploymentId);
    const previous = this.#previous.get(deploymentId);
    if (!previous) return;
    this.#previous.delete(deploymentId);
    this.#cache.set(deploymentId, previous);
    const secrets = previous.sealed
      ? openSecrets(this.d.box, previous.orgId, previous.identity, previous.sealed)
      : {};
    await this.#store(deploymentId, previous, {
      ...sealSecrets(this.d.box, previous.orgId, previous.identity, previous.profile, secrets),
      sealed: previous.sealed,
    });
  }

  /** Writes an entry's profile, flags, sealed value and URL (a built-in charger keeps no URL). */
  async #store(deploymentId: string, e: Entry, view: SealedSecurity): Promise<void> {
    await this.d.db.query(
      `UPDATE evc_deployments SET security_profile = $2, security_has_password = $3, security_has_client_cert = $4,
         security_sealed = $5, ws_url = CASE WHEN ws_url IS NULL THEN NULL ELSE $6 END, updated_at = now()
       WHERE id = $1`,
      [deploymentId, e.profile, view.has_password, view.has_client_cert, e.sealed, e.wsUrl],
    );
  }

  get cachedCount(): number {
    return this.#cache.size;
  }

  #settings(e: Entry): SettingsLookup {
    if (e.sealed)
      return {
        profile: e.profile,
        ...connectionSettingsOf(openSecrets(this.d.box, e.orgId, e.identity, e.sealed)),
      };
    // A charger of the built-in central system without a password (deployed before credentials
    // were required, or its process stopped between the row and the issue): issue them now.
    if (e.builtin)
      return this.d.chargePoints
        .issueCredentials(e.orgId, e.identity)
        .then((c) => (c ? { profile: 1, password: c.password } : undefined));
    return undefined;
  }

  /** Reads the deployments asked for while a query runs with the next query (one per batch). */
  #load(deploymentId: string): Promise<Entry | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(deploymentId);
      if (waiters) waiters.push({ resolve, reject });
      else this.#waiting.set(deploymentId, [{ resolve, reject }]);
      if (!this.#loading) {
        this.#loading = true;
        setImmediate(() => void this.#loadBatches());
      }
    });
  }

  async #loadBatches(): Promise<void> {
    while (this.#waiting.size > 0) {
      const batch = this.#waiting;
      this.#waiting = new Map();
      try {
        const { rows } = await this.d.db.query<{
          id: string;
          organization_id: string;
          identity: string;
          builtin: boolean;
          security_sealed: string | null;
          security_profile: number;
          ws_url: string | null;
        }>(
          `SELECT id::text AS id, organization_id, identity, ws_url IS NULL AS builtin, security_sealed,
             security_profile, ws_url
           FROM evc_deployments WHERE id = ANY($1::uuid[])`,
          [[...batch.keys()]],
        );
        for (const r of rows)
          this.#cache.set(r.id, {
            orgId: r.organization_id,
            identity: r.identity,
            builtin: r.builtin,
            sealed: r.security_sealed,
            profile: r.security_profile as SecurityProfile,
            wsUrl: r.ws_url,
          });
        for (const [id, waiters] of batch) for (const w of waiters) w.resolve(this.#cache.get(id));
      } catch (err) {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
      }
    }
    this.#loading = false;
  }

  #isOwnEndpoint(wsUrl: string): boolean {
    let url: URL;
    try {
      url = new URL(wsUrl);
    } catch {
      return false;
    }
    if (url.pathname.replace(/\/+$/, '') !== '/ocpp') return false;
    const own = [this.d.csmsUrl(), this.d.publicUrl].filter((u): u is string => !!u).map((u) => new URL(u));
    const port = portOf(url);
    if (own.some((o) => o.hostname === url.hostname && portOf(o) === port)) return true;
    // This machine under another name: loopback or one of its interfaces, on the API port.
    const api = this.d.csmsUrl();
    return api !== undefined && portOf(new URL(api)) === port && isThisMachine(url.hostname);
  }
}

function portOf(u: URL): string {
  return u.port || (u.protocol === 'wss:' || u.protocol === 'https:' ? '443' : '80');
}

function localHostnames(): Set<string> {
  const names = new Set(['localhost', '0.0.0.0', '[::]', '[::1]']);
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
  return names;
}

/** Loopback (any 127.x.y.z), the wildcard addresses, or an address of one of this machine's interfaces. */
function isThisMachine(hostname: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(hostname) || localHostnames().has(hostname);
}
