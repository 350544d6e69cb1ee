// Starts the whole service on one port: platform (database, broker), engine services and the API.
import { createServer, type Server } from 'node:http';
import { recentFrames } from '../engine/message-log/recent-frames.ts';
import type { AddressInfo } from 'node:net';
import type { Config } from '../engine/platform/config/config.ts';
import { createLogger, type Logger } from '../engine/platform/log/logger.ts';
import { startPlatform, type Platform } from '../engine/platform/platform.ts';
import { CatalogStore } from '../engine/catalog/catalog-store.ts';
import { loadReferenceData } from '../engine/catalog/reference-data.ts';
import { TemplateStore } from '../engine/catalog/template-store.ts';
import { startCpoServices } from '../engine/cpo/cpo-services.ts';
import { createEmspServices } from '../engine/emsp/emsp-services.ts';
import { createDeploymentsEngine } from '../engine/deployments/deployments-engine.ts';
import { createCommandsEngine } from '../engine/commands/commands-engine.ts';
import { startMessageLogService } from '../engine/message-log/message-log-service.ts';
import { ClusterNode } from '../engine/cluster/cluster-node.ts';
import { LeaseStore } from '../engine/cluster/lease-store.ts';
import { ScenarioRuns } from '../engine/scenarios/scenario-runs.ts';
import { ConformanceRuns } from '../engine/conformance/conformance-runs.ts';
import { TrafficService } from '../engine/traffic/traffic-service.ts';
import { ChaosBus } from '../engine/chaos/chaos-bus.ts';
import { ChaosService } from '../engine/chaos/chaos-service.ts';
import { CsmsMeasurements } from '../engine/metrics/csms-measurements.ts';
import { FiguresStore } from '../engine/metrics/figures-store.ts';
import { MetricsService } from '../engine/metrics/metrics-service.ts';
import { createApp } from './app.ts';
import type { ApiDeps } from './http/deps.ts';

export interface Service {
  url: string;
  server: Server;
  platform: Platform;
  deps: ApiDeps;
  close(): Promise<void>;
}

export async function startService(config: Config, log: Logger = createLogger(config)): Promise<Service> {
  const platform = await startPlatform(config, log);
  await loadReferenceData(platform.db, log).catch(async (err: unknown) => {
    await platform.close();
    throw err;
  });
  const messageLog = await startMessageLogService(platform);
  const frames = (key: string) => messageLog.observer(key);
  const cpo = await startCpoServices(platform, { frames }).catch(async (err: unknown) => {
    await messageLog.close();
    await platform.close();
    throw err;
  });
  const catalog = new CatalogStore(platform.db);
  // Virtual chargers without ws_url connect to the built-in central system on this port once it listens.
  let csmsUrl: string | undefined = undefined;
  const measurements = new CsmsMeasurements();
  const deployments = createDeploymentsEngine(platform, {
    measurements,
    catalog,
    chargePoints: cpo.chargePoints,
    csmsUrl: () => csmsUrl,
    frames,
    cluster: (host) =>
      new ClusterNode({
        store: new LeaseStore(platform.db, config.cluster.leaseTtlSeconds),
        host,
        mqtt: platform.mqtt.client,
        topicPrefix: config.mqttTopicPrefix,
        nodeId: platform.node.id,
        run: platform.node.run,
        role: config.cluster.role,
        ttlSeconds: config.cluster.leaseTtlSeconds,
        log: platform.log.child({ area: 'cluster' }),
      }),
    recentLog: (key) => recentFrames(messageLog.messageLog, key),
  });
  const commands = createCommandsEngine(platform, deployments.host);
  const metrics = new MetricsService({
    measurements,
    store: new FiguresStore(platform.db),
    nodeId: platform.node.id,
    engine: config.cluster.role !== 'api',
    connectors: () => deployments.host.connectorCounts(),
    log: platform.log.child({ area: 'metrics' }),
  });
  // Chaos runs' steps to the nodes holding their chargers, and what the chargers saw back.
  const chaosBus = new ChaosBus({
    mqtt: platform.mqtt.client,
    ...(deployments.cluster.engine ? { host: deployments.host } : {}),
    topicPrefix: config.mqttTopicPrefix,
    log: platform.log.child({ area: 'chaos' }),
  });
  const scenarios = new ScenarioRuns({ platform, deployments, commands, messageLog });
  const deps: ApiDeps = {
    platform,
    catalog,
    templates: new TemplateStore(platform.db),
    cpo,
    emsp: createEmspServices(platform),
    deployments,
    commands,
    messageLog,
    scenarios,
    conformance: new ConformanceRuns(scenarios),
    traffic: new TrafficService({ deployments, commands }),
    chaos: new ChaosService({ db: platform.db, bus: chaosBus, log: platform.log.child({ area: 'chaos' }) }),
    metrics,
  };
  // Present before anything serves: placement needs the live nodes, and the central system's
  // connections are online only while their node is.
  await deployments.cluster.announce().catch(async (err: unknown) => {
    await cpo.close();
    await messageLog.close();
    await platform.close();
    throw err;
  });
  const app = createApp(deps);
  const server = createServer(app.callback());
  // The built-in central system's OCPP endpoint shares the API port: ws://HOST:PORT/ocpp/{id}.
  server.on('upgrade', (req, socket, head) => cpo.centralSystem.handleUpgrade(req, socket, head));
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    await cpo.close();
    await messageLog.close();
    await platform.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = config.publicUrl ?? `http://${host}:${port}`;
  csmsUrl = `ws://${host}:${port}/ocpp`;
  // Chargers whose desired state is running come back, unfinished background jobs resume.
  // Commands: subscribed before the chargers come back, so none queued meanwhile is missed.
  if (deployments.cluster.engine) await commands.start();
  await chaosBus.start();
  await deployments.start().catch(async (err: unknown) => {
    await commands.close();
    await deployments.close();
    await cpo.close();
    await messageLog.close();
    server.close();
    await platform.close();
    throw err;
  });
  // This node's figures go to its row every few seconds (the fleet's /metrics sums the rows).
  metrics.start();

  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    platform,
    deps,
    close() {
      closing ??= (async () => {
        // Scenario and conformance runs end first: they remove the chargers they deployed.
        await deps.conformance.close();
        await deps.scenarios.close();
        await deps.traffic.close();
        // Chaos runs end with power and network back; then their bus.
        deps.chaos.close();
        await chaosBus.close();
        // Chargers first: snapshots flushed, actors stopped but not marked stopped (a restart resumes them).
        await commands.close();
        await metrics.close();
        await deployments.close();
        // WebSockets first: the HTTP server waits for every open connection.
        await cpo.close();
        // Last frames written; live streams end, so the HTTP server can close.
        await messageLog.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await platform.close();
      })();
      return closing;
    },
  };
}
