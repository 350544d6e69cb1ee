// The deployment operations behind E5-E9: validation against the catalog, registration of the
// charge point at the built-in central system, rows first, then the supervisor (through the host).
// Location deployment and location-wide runtime operations run as stored background jobs.
import type { ChargerModel, ChargerOcppVersion, StageEvent } from '../../actors/charger/charger-ports.ts';
import type { CatalogModel, CatalogStore } from '../catalog/catalog-store.ts';
import type { ChargePointStore } from '../cpo/charge-point-store.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { ChargerCredentials } from './charger-credentials.ts';
import type { ChargerHost } from './charger-host.ts';
import { securityProblems, type ChargerSecurity } from './charger-security.ts';
import type { DeploymentRow, DeploymentStore, NewDeployment } from './deployment-store.ts';
import type { DeploymentWriteBehind } from './deployment-write-behind.ts';
import type { Job, JobStore } from './job-store.ts';
import { JobRunner } from './job-runner.ts';

export const RUNTIME_ACTIONS = ['stop', 'start', 'restart', 'delete'] as const;
export type RuntimeAction = (typeof RUNTIME_ACTIONS)[number];

/** One charger to deploy, as E5 or one entry of E7 names it. */
export interface ChargerSpec {
  identity: string;
  model: string;
  ocpp_version?: ChargerOcppVersion;
  ws_url?: string;
  charger_name?: string;
  brand_slug?: string;
  connector_type?: string;
  security?: ChargerSecurity;
}

/** A request that is well-formed but names what the catalog does not have. */
export interface Problem {
  /** Path below the body, e.g. ['model'] or ['chargers', 2, 'model']. */
  loc: Array<string | number>;
  msg: string;
  input: unknown;
}

export type CreateOutcome =
  | { kind: 'created'; row: DeploymentRow }
  | { kind: 'invalid'; problems: Problem[] }
  | { kind: 'conflict'; detail: string };

export interface RuntimeOpResult {
  action: RuntimeAction;
  target_type: 'deployment';
  location_id: string | null;
  accepted_count: number;
  failed_count: number;
  results: Array<{
    deployment_id: string;
    status: 'accepted';
    response: { action: RuntimeAction; status: 'PENDING' };
  }>;
}

/** A resolved location charger, stored in its job so a resumed job needs no catalog. */
type DeployTarget = NewDeployment;

export interface DeploymentServiceDeps {
  store: DeploymentStore;
  jobs: JobStore;
  host: ChargerHost;
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
        deploy_location: (job, target) => this.#deployLocationCharger(job, target as DeployTarget),
        runtime_op: (job, target) => this.#locationOp(job, target as string),
      },
      d.log,
    );
  }

  // ---- E5 / E6 ----

  async create(orgId: string, spec: ChargerSpec): Promise<CreateOutcome> {
    const resolved = await this.#resolve(orgId, spec, []);
    if ('problems' in resolved) return { kind: 'invalid', problems: resolved.problems };
    return this.#deploy(orgId, resolved.target);
  }

  /** false when the organization has no such deployment. */
  async delete(orgId: string, deploymentId: string): Promise<boolean> {
    const row = await this.d.store.get(orgId, deploymentId);
    if (!row) return false;
    await this.d.host.remove(row.id);
    this.d.credentials.forget(row.id);
    return this.d.store.delete(orgId, row.id);
  }

  // ---- E7 / E8 ----

  /** Validates every charger against the catalog, stores the location and starts its deployment job. */
  async acceptLocation(
    orgId: string,
    name: string,
    body: unknown,
    chargers: ChargerSpec[],
    defaultVersion?: ChargerOcppVersion,
  ): Promise<{ locationId: string } | { problems: Problem[] }> {
    const problems: Problem[] = [];
    const targets: DeployTarget[] = [];
    const seen = new Set<string>();
    for (const [i, spec] of chargers.entries()) {
      if (seen.has(spec.identity))
        problems.push({
          loc: ['chargers', i, 'identity'],
          msg: `identity '${spec.identity}' appears more than once in this location`,
          input: spec.identity,
        });
      seen.add(spec.identity);
      const resolved = await this.#resolve(
        orgId,
        { ...spec, ocpp_version: spec.ocpp_version ?? defaultVersion },
        ['chargers', i],
      );
      if ('problems' in resolved) problems.push(...resolved.problems);
      else targets.push(resolved.target);
    }
    if (problems.length > 0) return { problems };
    const locationId = await this.d.store.createLocation(orgId, name, body);
    targets.forEach((t) => (t.location_id = locationId));
    this.runner.run(await this.d.jobs.create(orgId, 'deploy_location', locationId, targets));
    return { locationId };
  }

  async deleteLocation(orgId: string, locationId: string): Promise<boolean> {
    if (!(await this.d.store.locationExists(orgId, locationId))) return false;
    await this.runner.cancelLocation(locationId);
    const ids = new Set([
      ...(await this.d.store.idsOfLocation(locationId)),
      ...this.d.host.idsOfLocation(locationId),
    ]);
    await this.d.host.removeAll([...ids]);
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
        this.d.host.stop(row.id);
        return;
      case 'start':
      case 'restart':
        await this.d.store.setDesired(row.id, 'running');
        this.d.host.start(row, action === 'restart');
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

  async #deployLocationCharger(job: Job, target: DeployTarget): Promise<void> {
    const existing = await this.d.store.byIdentity(job.organization_id, target.identity);
    if (existing?.location_id === job.location_id) return; // deployed before a restart
    let outcome: CreateOutcome;
    try {
      outcome = await this.#deploy(job.organization_id, target);
    } catch (err) {
      this.d.log.error({ err, identity: target.identity }, 'deployments: location charger failed');
      outcome = { kind: 'conflict', detail: 'internal error while deploying the charger' };
    }
    if (outcome.kind === 'created') return;
    const hint = outcome.kind === 'conflict' ? outcome.detail : outcome.problems.map((p) => p.msg).join('; ');
    this.d.log.warn(
      { identity: target.identity, location: job.location_id, hint },
      'location charger not deployed',
    );
    const event: StageEvent = {
      identity: target.identity,
      attempt: 1,
      stage: 'not_deployed',
      outcome: 'failed',
      at: new Date().toISOString(),
      code: 'DEPLOY_FAILED',
      hint,
    };
    this.d.writer.orphanEvent(job.organization_id, job.location_id, event);
  }

  async #deploy(orgId: string, target: DeployTarget): Promise<CreateOutcome> {
    if (!target.ws_url) {
      const registered = await this.#ensureChargePoint(orgId, target);
      if (!registered)
        return {
          kind: 'conflict',
          detail: `Charger identity '${target.identity}' is registered at the built-in central system by another organization`,
        };
    } else if (await this.d.credentials.takesOver(orgId, target.identity, target.ws_url))
      return {
        kind: 'conflict',
        detail: `Charger identity '${target.identity}' is registered at this service's central system (${target.ws_url}) by another organization`,
      };
    const row = await this.d.store.create(orgId, target);
    if (!row)
      return {
        kind: 'conflict',
        detail: `A deployment of charger identity '${target.identity}' already exists in this organization`,
      };
    // Its credentials at the built-in central system: the hash there, the password sealed in the row.
    if (!target.ws_url) await this.d.credentials.issueBuiltIn(orgId, target.identity);
    this.d.host.deploy(row);
    return { kind: 'created', row };
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

  async #resolve(
    orgId: string,
    spec: ChargerSpec,
    at: Array<string | number>,
  ): Promise<{ target: DeployTarget } | { problems: Problem[] }> {
    const model = await this.d.catalog.findModel(spec.model);
    if (!model)
      return {
        problems: [
          {
            loc: [...at, 'model'],
            msg: `Unknown model '${spec.model}': use a model slug of GET /evcharger/catalog/{brand_slug}/models`,
            input: spec.model,
          },
        ],
      };
    const problems: Problem[] = [];
    if (spec.brand_slug !== undefined && spec.brand_slug !== model.brand_slug)
      problems.push({
        loc: [...at, 'brand_slug'],
        msg: `Model '${model.slug}' belongs to brand '${model.brand_slug}', not '${spec.brand_slug}'`,
        input: spec.brand_slug,
      });
    const version = spec.ocpp_version ?? (model.ocpp_versions[0] as ChargerOcppVersion);
    if (!model.ocpp_versions.includes(version))
      problems.push({
        loc: [...at, 'model'],
        msg: `Model '${model.slug}' does not speak ${version} (it supports ${model.ocpp_versions.join(', ')})`,
        input: spec.model,
      });
    problems.push(...securityProblems(spec, at));
    if (problems.length > 0) return { problems };
    const target: DeployTarget = {
      identity: spec.identity,
      model: model.slug,
      charger_model: chargerModelOf(model),
      ocpp_version: version,
    };
    if (spec.ws_url) target.ws_url = spec.ws_url;
    if (spec.charger_name) target.charger_name = spec.charger_name;
    if (spec.brand_slug) target.brand_slug = spec.brand_slug;
    if (spec.connector_type) target.connector_type = spec.connector_type;
    // Sealed before it is stored anywhere (a location job keeps its targets as JSON).
    if (spec.security) target.security = this.d.credentials.seal(orgId, spec.identity, spec.security);
    return { target };
  }
}

function chargerModelOf(m: CatalogModel): ChargerModel {
  const model: ChargerModel = {
    boot_vendor: m.boot_vendor,
    boot_model: m.boot_model,
    connector_count: m.connector_count,
    max_power_kw: m.max_power_kw,
    current_type: m.current_type === 'DC' ? 'DC' : 'AC',
    connector_types: m.connector_types,
  };
  if (m.firmware_version) model.firmware_version = m.firmware_version;
  return model;
}
