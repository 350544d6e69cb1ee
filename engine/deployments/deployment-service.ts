// The deployment operations behind E5-E9: validation against the catalog, registration of the
// charge point at the built-in central system, rows first, then the supervisor (through the host).
// Location deployment and location-wide runtime operations run as stored background jobs.
import type { StageEvent } from '../../actors/charger/charger-ports.ts';
import { randomUUID } from 'node:crypto';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ChargePointStore } from '../cpo/charge-point-store.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { ChargerCredentials } from './charger-credentials.ts';
import type { ChargerSecurity } from './charger-security.ts';
import type { ChargerHost } from './charger-host.ts';
import type { FleetPlacement } from './fleet-placement.ts';
import type { DeploymentRow, DeploymentStore, LocationFailure, NewDeployment } from './deployment-store.ts';
import type { DeploymentWriteBehind } from './deployment-write-behind.ts';
import type { Job, JobStore } from './job-store.ts';
import { JobRunner } from './job-runner.ts';
import { expandGroups } from './location-plan.ts';
import {
  identityTaken,
  registeredElsewhere,
  resolveCharger,
  type ChargerSpec,
  type DeployFailureCode,
  type Problem,
} from './charger-resolution.ts';

export type { ChargerSpec, DeployFailureCode, Problem };

export {
  RUNTIME_ACTIONS,
  type AcceptedLocation,
  type CreateOutcome,
  type LocationRequest,
  type RuntimeAction,
  type RuntimeOpResult,
} from './deployment-requests.ts';
import type {
  AcceptedLocation,
  CreateOutcome,
  LocationRequest,
  RuntimeAction,
  RuntimeOpResult,
} from './deployment-requests.ts';

/** A resolved location charger, stored in its job so a resumed job needs no catalog. */
type DeployTarget = NewDeployment;

/** Location chargers written per insert (the E7 path is one statement per chunk, not per charger). */
const DEPLOY_CHUNK = 500;

export interface DeploymentServiceDeps {
  store: DeploymentStore;
  jobs: JobStore;
  host: ChargerHost;
  /** Which node runs each charger (several nodes on one database and broker). */
  placement: FleetPlacement;
  writer: DeploymentWriteBehind;
  catalog: CatalogStore;
  chargePoints: ChargePointStore;
  credentials: ChargerCredentials;
  log: Logger;
}

export class DeploymentService {
  readonly runner: JobRunner;

  constructor(private readonly d: DeploymentServiceDeps) {
    this.runner = new JobRunner(
      d.jobs,
      {
        deploy_location: {
          run: (job, targets) => this.#deployLocationChargers(job, targets as DeployTarget[]),
          chunk: DEPLOY_CHUNK,
          serial: true,
        },
        runtime_op: {
          run: async (job, ids) => {
            for (const id of ids as string[]) await this.#locationOp(job, id);
          },
          chunk: 20,
        },
      },
      d.log,
    );
  }

  // ---- E5 / E6 ----

  async create(orgId: string, spec: ChargerSpec): Promise<CreateOutcome> {
    const resolved = await resolveCharger(spec, (slug) => this.d.catalog.findModel(slug), this.#seal(orgId));
    if ('problems' in resolved) return { kind: 'invalid', problems: resolved.problems };
    return this.#deploy(orgId, resolved.target);
  }

  /** false when the organization has no such deployment. */
  async delete(orgId: string, deploymentId: string): Promise<boolean> {
    const row = await this.d.store.get(orgId, deploymentId);
    if (!row) return false;
    await this.d.placement.remove([row.id]);
    this.d.credentials.forget(row.id);
    return this.d.store.delete(orgId, row.id);
  }

  // ---- E7 / E8 ----

  /**
   * Stores the location and starts deploying its chargers in the background. A charger that
   * cannot be deployed (unknown model, identity taken, ...) does not stop the others: it is
   * recorded as failed with a code and hint. Acceptances run one at a time in this process (each
   * is a few queries), so two posts of the same groups number their chargers apart; identities at
   * the built-in central system are shared by every organization, hence one queue for all.
   */
  acceptLocation(orgId: string, req: LocationRequest): Promise<AcceptedLocation> {
    const run = this.#accepting.then(() => this.#acceptLocation(orgId, req));
    this.#accepting = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  #accepting: Promise<void> = Promise.resolve();

  async #acceptLocation(orgId: string, req: LocationRequest): Promise<AcceptedLocation> {
    const inUse = new Map<string, string[]>();
    for (const prefix of new Set(req.groups.map((g) => g.identity_prefix)))
      inUse.set(prefix, [
        ...(await this.d.store.identitiesWithPrefix(orgId, prefix)),
        ...req.chargers.map((c) => c.identity).filter((id) => id.startsWith(prefix)),
      ]);
    const specs = [...req.chargers, ...expandGroups(req.groups, (prefix) => inUse.get(prefix) ?? [])];

    const failures: LocationFailure[] = [];
    const resolved: DeployTarget[] = [];
    const findModel = (slug: string) => this.d.catalog.findModel(slug);
    for (const spec of specs) {
      const outcome = await resolveCharger(
        { ...spec, ocpp_version: spec.ocpp_version ?? req.ocppVersion },
        findModel,
        this.#seal(orgId),
      );
      if ('target' in outcome) resolved.push(outcome.target);
      else
        failures.push({
          identity: spec.identity,
          model: spec.model,
          ocpp_version: spec.ocpp_version ?? req.ocppVersion ?? null,
          code: outcome.problems[0].code,
          hint: outcome.problems.map((p) => p.msg).join('; '),
        });
    }
    const conflicts = await this.d.store.identityConflicts(
      orgId,
      resolved.map((t) => t.identity),
      resolved.filter((t) => !t.ws_url).map((t) => t.identity),
    );
    const targets: DeployTarget[] = [];
    for (const t of resolved) {
      const conflict = conflicts.deployed.has(t.identity)
        ? identityTaken(t.identity)
        : conflicts.elsewhere.has(t.identity)
          ? registeredElsewhere(t.identity)
          : undefined;
      if (conflict) failures.push({ ...failureOf(t), code: conflict.code, hint: conflict.detail });
      else targets.push(t);
    }

    const locationId = randomUUID();
    targets.forEach((t) => (t.location_id = locationId));
    const job = await this.d.store.acceptLocation(orgId, {
      nodeId: this.d.jobs.nodeId,
      id: locationId,
      name: req.name,
      body: req.body,
      failures,
      targets,
    });
    this.#tellFailures(orgId, locationId, failures);
    if (job) this.runner.run(job);
    return {
      locationId,
      deploying: targets.length,
      failed: failures.map(({ identity, code, hint }) => ({ identity, code, hint })),
    };
  }

  async deleteLocation(orgId: string, locationId: string): Promise<boolean> {
    if (!(await this.d.store.locationExists(orgId, locationId))) return false;
    await this.runner.cancelLocation(locationId);
    const ids = new Set([
      ...(await this.d.store.idsOfLocation(locationId)),
      ...this.d.host.idsOfLocation(locationId),
    ]);
    await this.d.placement.remove([...ids]);
    for (const id of ids) this.d.credentials.forget(id);
    return this.d.store.deleteLocation(orgId, locationId);
  }

  // ---- E9 ----

  /** undefined when the organization has no such deployment. */
  async runtimeOp(
    orgId: string,
    action: RuntimeAction,
    deploymentId: string,
  ): Promise<RuntimeOpResult | undefined> {
    const row = await this.d.store.get(orgId, deploymentId);
    if (!row) return undefined;
    await this.#apply(orgId, row, action);
    return {
      action,
      target_type: 'deployment',
      location_id: row.location_id,
      accepted_count: 1,
      failed_count: 0,
      results: [{ deployment_id: row.id, status: 'accepted', response: { action, status: 'PENDING' } }],
    };
  }

  /** false when the organization has no such location; else the fan-out runs in the background. */
  async runtimeOpLocation(orgId: string, action: RuntimeAction, locationId: string): Promise<boolean> {
    if (!(await this.d.store.locationExists(orgId, locationId))) return false;
    const ids = await this.d.store.idsOfLocation(locationId);
    this.runner.run(await this.d.jobs.create(orgId, 'runtime_op', locationId, ids, action));
    return true;
  }

  // ---- internals ----

  async #apply(orgId: string, row: DeploymentRow, action: RuntimeAction): Promise<void> {
    switch (action) {
      case 'stop':
        await this.d.store.setDesired(row.id, 'stopped');
        await this.d.placement.stop(row.id);
        return;
      case 'start':
      case 'restart':
        await this.d.store.setDesired(row.id, 'running');
        await this.d.placement.startCharger(row, action === 'restart');
        return;
      case 'delete':
        await this.delete(orgId, row.id);
        return;
    }
  }

  async #locationOp(job: Job, deploymentId: string): Promise<void> {
    const row = await this.d.store.get(job.organization_id, deploymentId);
    if (!row) return; // deleted meanwhile
    await this.#apply(job.organization_id, row, job.action as RuntimeAction);
  }

  /**
   * A chunk of a location job: the checks that need a query only for some chargers (own central
   * system), then one insert for the chunk, then the chargers start. A charger already in this
   * location was deployed before a restart of the job.
   */
  async #deployLocationChargers(job: Job, targets: DeployTarget[]): Promise<void> {
    const orgId = job.organization_id;
    const failures: LocationFailure[] = [];
    const fail = (t: DeployTarget, code: string, hint: string) =>
      failures.push({ ...failureOf(t), code, hint });
    const ready: DeployTarget[] = [];
    for (const t of targets) {
      try {
        const refused = await this.#refusal(orgId, t);
        if (refused) fail(t, refused.code, refused.detail);
        else ready.push(t);
      } catch (err) {
        this.d.log.error({ err, identity: t.identity }, 'deployments: location charger failed');
        fail(t, 'DEPLOY_FAILED', 'internal error while deploying the charger');
      }
    }
    const created = await this.#insert(orgId, ready);
    const missing = ready.filter((t) => !created.has(t.identity));
    const locations =
      missing.length > 0
        ? await this.d.store.locationsOf(
            orgId,
            missing.map((t) => t.identity),
          )
        : new Map();
    for (const t of missing)
      if (locations.get(t.identity) !== job.location_id) {
        const taken = identityTaken(t.identity);
        fail(t, taken.code, taken.detail);
      }
    await this.#recordFailures(orgId, job.location_id, failures);
  }

  /** Failed location chargers: kept for the list, logged, and told as `failed` stage events (E10). */
  async #recordFailures(orgId: string, locationId: string, failures: LocationFailure[]): Promise<void> {
    if (failures.length === 0) return;
    await this.d.store.recordFailures(orgId, locationId, failures);
    this.#tellFailures(orgId, locationId, failures);
  }

  /** Failures already stored: logged, and told as `failed` stage events. */
  #tellFailures(orgId: string, locationId: string, failures: LocationFailure[]): void {
    const at = new Date().toISOString();
    for (const f of failures) {
      this.d.log.warn(
        { identity: f.identity, location: locationId, code: f.code, hint: f.hint },
        'location charger not deployed',
      );
      const event: StageEvent = {
        identity: f.identity,
        attempt: 1,
        stage: 'not_deployed',
        outcome: 'failed',
        at,
        code: f.code,
        hint: f.hint,
      };
      this.d.writer.orphanEvent(orgId, locationId, event);
    }
  }

  async #deploy(orgId: string, target: DeployTarget): Promise<CreateOutcome> {
    const refused = await this.#refusal(orgId, target);
    if (refused) return { kind: 'conflict', ...refused };
    const row = (await this.#insert(orgId, [target])).get(target.identity);
    if (!row) return { kind: 'conflict', ...identityTaken(target.identity) };
    return { kind: 'created', row };
  }

  /** Why the identity cannot be deployed by this organization: registered at our central system by another. */
  async #refusal(
    orgId: string,
    target: DeployTarget,
  ): Promise<{ code: DeployFailureCode; detail: string } | undefined> {
    const elsewhere = target.ws_url
      ? await this.d.credentials.takesOver(orgId, target.identity, target.ws_url)
      : !(await this.#ensureChargePoint(orgId, target));
    return elsewhere ? registeredElsewhere(target.identity) : undefined;
  }

  /**
   * Rows for the targets in one statement (with the lease of the node that runs each), then their
   * credentials at the built-in central system, then the chargers start. Keyed by identity; an
   * identity that already had a deployment is missing.
   */
  async #insert(orgId: string, targets: DeployTarget[]): Promise<Map<string, DeploymentRow>> {
    if (targets.length === 0) return new Map();
    const leases = await this.d.placement.place(targets.length);
    const rows = await this.d.store.createMany(
      orgId,
      targets.map((deployment, i) => ({ deployment, lease: leases[i] })),
    );
    const byIdentity = new Map(rows.map((r) => [r.identity, r]));
    const placed: Array<{ row: DeploymentRow; nodeId: string | undefined }> = [];
    for (let i = 0; i < targets.length; i++) {
      const row = byIdentity.get(targets[i].identity);
      if (!row) continue;
      // Its credentials at the built-in central system: the hash there, the password sealed in the row.
      if (!targets[i].ws_url) await this.d.credentials.issueBuiltIn(orgId, targets[i].identity);
      placed.push({ row, nodeId: leases[i]?.nodeId });
    }
    await this.d.placement.deployed(placed);
    return byIdentity;
  }

  #seal(orgId: string) {
    return (identity: string, security: ChargerSecurity) =>
      this.d.credentials.seal(orgId, identity, security);
  }

  /** A charger without ws_url connects to the built-in central system: its charge point must exist. */
  async #ensureChargePoint(orgId: string, t: DeployTarget): Promise<boolean> {
    const cp = this.d.chargePoints;
    if (await cp.get(orgId, t.identity)) return true;
    const created = await cp.create(orgId, {
      charge_point_id: t.identity,
      ocpp_version: t.ocpp_version,
      charge_point_vendor: t.charger_model.boot_vendor.slice(0, 50),
      charge_point_model: t.charger_model.boot_model.slice(0, 50),
      connector_count: t.charger_model.connector_count,
      max_power_kw: t.charger_model.max_power_kw,
      ...(t.connector_type ? { connector_type: t.connector_type } : {}),
    });
    // Not created: registered meanwhile by this organization (fine) or owned by another one.
    return created !== undefined || (await cp.get(orgId, t.identity)) !== undefined;
  }
}

const failureOf = (t: DeployTarget) => ({
  identity: t.identity,
  model: t.model,
  ocpp_version: t.ocpp_version,
});
