// The deployments engine of one process: the charger runtime, the supervisor host, the
// write-behind, background jobs and the stores the API reads. Created before the HTTP server
// listens (the routers need it), started once it listens (chargers of the built-in central system
// connect to it), closed before anything else (snapshots flushed, actors stopped, not marked stopped).
import type { Platform } from '../platform/platform.ts';
import type { LogFrame } from '../charger/transfers.ts';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ChargePointStore } from '../cpo/charge-point-store.ts';
import type { FrameObserver } from '../../protocols/ocpp/index.ts';
import { createChargerRuntime } from '../charger/charger-runtime.ts';
import { allowListFetch } from '../platform/net/allowed-fetch.ts';
import { createChargerInspector, type ChargerInspector } from '../charger/charger-inspector.ts';
import { ChargerCredentials } from './charger-credentials.ts';
import { ChargerHost } from './charger-host.ts';
import { DeploymentStore } from './deployment-store.ts';
import { DeploymentService } from './deployment-service.ts';
import { DeploymentWriteBehind } from './deployment-write-behind.ts';
import { JobStore } from './job-store.ts';
import { StageEventStore } from './stage-event-store.ts';
import { StageEventRetention } from './stage-event-retention.ts';
import type { FleetNode } from './fleet-placement.ts';
import type { CsmsMeasurements } from '../metrics/csms-measurements.ts';
import type { CallMeter } from '../charger/charger-runtime.ts';

/** The meter of a charger's organization, location and version (asked once per connection). */
function meterOf(
  measurements: CsmsMeasurements,
  host: ChargerHost,
  version: string,
  deploymentId: string | undefined,
): CallMeter | undefined {
  const place = deploymentId === undefined ? undefined : host.placeOf(deploymentId);
  return place && measurements.meter(place.orgId, place.locationId, version);
}

export interface DeploymentsEngine {
  service: DeploymentService;
  store: DeploymentStore;
  events: StageEventStore;
  /** Pruning of the stage events by count per charger and by age (once a minute). */
  eventRetention: StageEventRetention;
  host: ChargerHost;
  /** Sealed credentials of the chargers, per connection attempt (the seam for credential changes). */
  credentials: ChargerCredentials;
  /** This node in a fleet shared by several nodes (leases, placement, hand-over). */
  cluster: FleetNode;
  /** Rehydrates the chargers that should run and resumes unfinished background jobs. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface DeploymentsEngineDeps {
  catalog: CatalogStore;
  chargePoints: ChargePointStore;
  /** Base URL of the built-in central system's OCPP endpoint (e.g. ws://127.0.0.1:8080/ocpp), known once listening. */
  csmsUrl: () => string | undefined;
  /** The OCPP message log: each charger connection's frames, keyed by the deployment id. */
  frames?: (deploymentId: string) => FrameObserver | undefined;
  /** This node in the fleet, around the host (engine/cluster: leases on this database, control over this broker). */
  cluster: (host: ChargerHost) => FleetNode;
  /** The charger's recent OCPP frames, for a diagnostics / log upload (firmware and diagnostics). */
  recentLog?: (deploymentId: string) => Promise<LogFrame[]>;
  /** This node's measurements of the central system: each charger's calls go to its location's meter. */
  measurements?: CsmsMeasurements;
}

export function createDeploymentsEngine(platform: Platform, deps: DeploymentsEngineDeps): DeploymentsEngine {
  const { db, config } = platform;
  const { measurements } = deps;
  const log = platform.log.child({ area: 'deployments' });
  const store = new DeploymentStore(db);
  const jobs = new JobStore(db, platform.node.id);
  const events = new StageEventStore(db);
  const eventRetention = new StageEventRetention({ store: events, log, ...config.stageEvents });
  const writer = new DeploymentWriteBehind(db, log, eventRetention);
  const inspector: ChargerInspector | undefined = config.inspect
    ? createChargerInspector(config.inspect, log)
    : undefined;
  const { connecting, registering, offline } = config.stageDeadlines;
  const credentials = new ChargerCredentials({
    db,
    box: platform.secrets,
    chargePoints: deps.chargePoints,
    log,
    csmsUrl: deps.csmsUrl,
    publicUrl: config.publicUrl,
  });
  const runtime = createChargerRuntime({
    log,
    ...(config.transferAllowedHosts && { transferFetch: allowListFetch(config.transferAllowedHosts) }),
    defaultCsmsUrl: deps.csmsUrl,
    connectionSettings: (_identity, deploymentId) => credentials.settingsFor(deploymentId),
    onConnectFailure: (_identity, deploymentId, code) => credentials.connectFailed(deploymentId, code),
    onSecurityRequest: (deploymentId, request, reply) =>
      credentials.securityRequest(deploymentId, request, reply),
    frameObserver: deps.frames && ((_identity, key) => (key === undefined ? undefined : deps.frames!(key))),
    recentLog: deps.recentLog && ((_identity, key) => (key === undefined ? [] : deps.recentLog!(key))),
    meter: measurements && ((_identity, version, key) => meterOf(measurements, host, version, key)),
    timings: {
      ...(connecting !== undefined && { connectingDeadlineMs: connecting * 1000 }),
      ...(registering !== undefined && { registeringDeadlineMs: registering * 1000 }),
      ...(offline !== undefined && { offlineDeadlineMs: offline * 1000 }),
    },
  });
  const host = new ChargerHost({ runtime, store, writer, log, inspector });
  const cluster = deps.cluster(host);
  const service = new DeploymentService({
    store,
    jobs,
    host,
    placement: cluster,
    writer,
    catalog: deps.catalog,
    chargePoints: deps.chargePoints,
    credentials,
    log,
  });

  let closing: Promise<void> | undefined;
  return {
    service,
    store,
    events,
    eventRetention,
    host,
    credentials,
    cluster,
    async start() {
      await cluster.start();
      // Background jobs (E7, E9 fan-out) belong to the API: nodes serving it resume their own,
      // and take over those of a node that died (seen gone, or at the sweep).
      if (config.cluster.role !== 'engine') {
        cluster.onSweep(() => service.runner.resume());
        await service.runner.resume();
      }
    },
    close() {
      closing ??= (async () => {
        await service.runner.close();
        await host.close();
        await eventRetention.close();
        // Snapshots written: the leases go, and the other nodes claim the chargers at once.
        await cluster.leave();
        inspector?.close();
      })();
      return closing;
    },
  };
}
