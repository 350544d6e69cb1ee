// The deployments engine of one process: the charger runtime, the supervisor host, the
// write-behind, background jobs and the stores the API reads. Created before the HTTP server
// listens (the routers need it), started once it listens (chargers of the built-in central system
// connect to it), closed before anything else (snapshots flushed, actors stopped, not marked stopped).
import type { Platform } from '../platform/platform.ts';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ChargePointStore } from '../cpo/charge-point-store.ts';
import type { FrameObserver } from '../../protocols/ocpp/index.ts';
import { createChargerRuntime } from '../charger/charger-runtime.ts';
import { createChargerInspector, type ChargerInspector } from '../charger/charger-inspector.ts';
import { ChargerCredentials } from './charger-credentials.ts';
import { ChargerHost } from './charger-host.ts';
import { DeploymentStore } from './deployment-store.ts';
import { DeploymentService } from './deployment-service.ts';
import { DeploymentWriteBehind } from './deployment-write-behind.ts';
import { JobStore } from './job-store.ts';
import { StageEventStore } from './stage-event-store.ts';

export interface DeploymentsEngine {
  service: DeploymentService;
  store: DeploymentStore;
  events: StageEventStore;
  host: ChargerHost;
  /** Sealed credentials of the chargers, per connection attempt (the seam for credential changes). */
  credentials: ChargerCredentials;
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
}

export function createDeploymentsEngine(platform: Platform, deps: DeploymentsEngineDeps): DeploymentsEngine {
  const { db, config } = platform;
  const log = platform.log.child({ area: 'deployments' });
  const store = new DeploymentStore(db);
  const jobs = new JobStore(db);
  const writer = new DeploymentWriteBehind(db, log);
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
    defaultCsmsUrl: deps.csmsUrl,
    connectionSettings: (_identity, deploymentId) => credentials.settingsFor(deploymentId),
    onConnectFailure: (_identity, deploymentId, code) => credentials.connectFailed(deploymentId, code),
    frameObserver: deps.frames && ((_identity, key) => (key === undefined ? undefined : deps.frames!(key))),
    timings: {
      ...(connecting !== undefined && { connectingDeadlineMs: connecting * 1000 }),
      ...(registering !== undefined && { registeringDeadlineMs: registering * 1000 }),
      ...(offline !== undefined && { offlineDeadlineMs: offline * 1000 }),
    },
  });
  const host = new ChargerHost({ runtime, store, writer, log, inspector });
  const service = new DeploymentService({
    store,
    jobs,
    host,
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
    events: new StageEventStore(db),
    host,
    credentials,
    async start() {
      await host.rehydrate();
      await service.runner.resume();
    },
    close() {
      closing ??= (async () => {
        await service.runner.close();
        await host.close();
        inspector?.close();
      })();
      return closing;
    },
  };
}
