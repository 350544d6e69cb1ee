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
// new secrets for a deployment and takes effect at its next connection attempt.
import { networkInterfaces } from 'node:os';
import type { ChargePointStore } from '../cpo/charge-point-store.ts';
import type { SettingsLookup } from '../charger/charger-runtime.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
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
  #waiting = new Map<string, Waiter[]>();
  #loading = false;

  constructor(private readonly d: ChargerCredentialsDeps) {
    d.chargePoints.handOverCredentials({
      seal: (orgId, identity, password) => sealSecrets(d.box, orgId, identity, 1, { password }).sealed!,
      handedOver: (orgId, identity, sealed, ids) => {
        for (const id of ids) this.#cache.set(id, { orgId, identity, builtin: true, sealed });
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
    const entry = this.#cache.get(deploymentId);
    if (entry) return this.#settings(entry);
    return this.#load(deploymentId).then((e) => e && this.#settings(e));
  }

  /** A connection attempt of the deployment failed with `code`. */
  connectFailed(deploymentId: string | undefined, code: string): void {
    if (deploymentId !== undefined && REFUSED.has(code)) this.#cache.delete(deploymentId);
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
    const { rows } = await q.query<{ organization_id: string; identity: string; builtin: boolean }>(
      'SELECT organization_id, identity, ws_url IS NULL AS builtin FROM evc_deployments WHERE id = $1',
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
    });
    return true;
  }

  get cachedCount(): number {
    return this.#cache.size;
  }

  #settings(e: Entry): SettingsLookup {
    if (e.sealed) return connectionSettingsOf(openSecrets(this.d.box, e.orgId, e.identity, e.sealed));
    // A charger of the built-in central system without a password (deployed before credentials
    // were required, or its process stopped between the row and the issue): issue them now.
    if (e.builtin)
      return this.d.chargePoints
        .issueCredentials(e.orgId, e.identity)
        .then((c) => (c ? { password: c.password } : undefined));
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
        }>(
          `SELECT id::text AS id, organization_id, identity, ws_url IS NULL AS builtin, security_sealed
           FROM evc_deployments WHERE id = ANY($1::uuid[])`,
          [[...batch.keys()]],
        );
        for (const r of rows)
          this.#cache.set(r.id, {
            orgId: r.organization_id,
            identity: r.identity,
            builtin: r.builtin,
            sealed: r.security_sealed,
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
