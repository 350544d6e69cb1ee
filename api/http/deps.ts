// What the routers are given: the platform (database, broker, tokens, config) and the engine's
// services. Routers receive a deps object, never reach for globals.
import type { Platform } from '../../engine/platform/platform.ts';
import type { CatalogStore } from '../../engine/catalog/catalog-store.ts';
import type { TemplateStore } from '../../engine/catalog/template-store.ts';
import type { CpoServices } from '../../engine/cpo/cpo-services.ts';
import type { EmspServices } from '../../engine/emsp/emsp-services.ts';
import type { DeploymentsEngine } from '../../engine/deployments/deployments-engine.ts';
import type { CommandsEngine } from '../../engine/commands/commands-engine.ts';
import type { MessageLogService } from '../../engine/message-log/message-log-service.ts';
import type { ScenarioRuns } from '../../engine/scenarios/scenario-runs.ts';
import type { ConformanceRuns } from '../../engine/conformance/conformance-runs.ts';
import type { TrafficService } from '../../engine/traffic/traffic-service.ts';
import type { ChaosService } from '../../engine/chaos/chaos-service.ts';
import type { MetricsService } from '../../engine/metrics/metrics-service.ts';

export interface ApiDeps {
  platform: Platform;
  catalog: CatalogStore;
  templates: TemplateStore;
  /** eMSP area, roaming partners and the OCPI client, idempotency keys. */
  emsp: EmspServices;
  /** CPO area and the built-in central system. */
  cpo: CpoServices;
  /** Virtual charger deployments (E5-E10): supervisor host, stores, background jobs. */
  deployments: DeploymentsEngine;
  /** Commands to virtual chargers over MQTT (E11-E16). */
  commands: CommandsEngine;
  /** The OCPP message log of chargers and charge points: pages, live streams. */
  messageLog: MessageLogService;
  /** Scenario runs (issue 16): started, followed and read through the API. */
  scenarios: ScenarioRuns;
  /** Conformance runs (issue 34): the ready test cases of a version as one suite. */
  conformance: ConformanceRuns;
  /** Generated traffic on locations (issue 16). */
  traffic: TrafficService;
  /** Fleet chaos runs (issue 35). */
  chaos: ChaosService;
  /** Measurements of the central system under test, summed over the nodes (issue 36). */
  metrics: MetricsService;
}
