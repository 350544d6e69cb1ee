// Request shapes of the console's fleet reads (GET /evcharger/fleet/...).
import { z } from 'zod';
import { intString } from '../http/validation.ts';

export const FLEET_LIMIT_MAX = 500;

export const fleetQuery = z.object({
  q: z.string().max(128).optional(),
  stage: z.string().min(1).max(32).optional(),
  outcome: z.enum(['in_progress', 'succeeded', 'failed', 'stuck', 'recovered']).optional(),
  location_id: z.string().min(1).max(64).optional(),
  limit: intString(z.number().min(1).max(FLEET_LIMIT_MAX)).optional().default(50),
  offset: intString(z.number().min(0).max(1_000_000)).optional().default(0),
});

/** GET /evcharger/fleet/csms-latency: one location of the organization, or all of them; a window. */
export const csmsLatencyQuery = z.object({
  location_id: z.string().min(1).max(64).optional(),
  window: z.enum(['1m', '15m', 'all']).optional().default('15m'),
});

// ---- answers, for the API description ----

const dateTime = z.iso.datetime({ offset: true });

export const fleetSummary = z.object({
  total: z.number().int(),
  stages: z.record(z.string(), z.number().int()).meta({ description: 'Deployments per stage' }),
  outcomes: z.record(z.string(), z.number().int()).meta({ description: 'Deployments per outcome' }),
});

export const fleetItem = z.object({
  deployment_id: z.string(),
  identity: z.string(),
  ocpp_version: z.string(),
  model: z.string(),
  location_id: z.string().nullable(),
  stage: z.string(),
  outcome: z.string(),
  code: z.string().nullable(),
  hint: z.string().nullable(),
  updated_at: dateTime,
  connectors: z
    .array(z.object({ connector_id: z.number().int(), status: z.string(), power_w: z.number() }))
    .meta({
      description: "The charger's connectors as its newest stored snapshot has them (none before it)",
    }),
});

export const fleetPage = z.object({
  items: z.array(fleetItem),
  total: z.number().int().meta({ description: 'Deployments matching the filters' }),
  next_offset: z.number().int().nullable(),
});

/** A state of the machine; `states` holds its children in the same shape (not spelt out: recursive). */
const diagramNode = z.object({
  id: z.string(),
  key: z.string(),
  type: z.string(),
  initial: z.string().nullable(),
  transitions: z.array(z.object({ event: z.string(), targets: z.array(z.string()) })),
  states: z.array(z.unknown()).meta({ description: 'Child states, each of this same shape' }),
});

export const machineView = z.object({
  machine: diagramNode.meta({ description: "The charger's state machine, read from its definition" }),
  value: z.unknown().meta({ description: 'The stored state value, or null before the first snapshot' }),
  active: z.array(z.string()).meta({ description: 'Ids of the active states' }),
});

export const consoleFile = z.object({ file: z.string().min(1).max(64) });

const ms = (description: string) => z.number().nullable().meta({ description });

export const csmsLatency = z.object({
  window: z.enum(['1m', '15m', 'all']),
  items: z.array(
    z.object({
      version: z.string().meta({ description: 'OCPP version of the chargers that sent the action' }),
      action: z.string().meta({ description: 'What the chargers sent (BootNotification, Authorize, ...)' }),
      count: z.number().int().meta({ description: 'Answers (CALLRESULT or CALLERROR) in the window' }),
      p50_ms: ms('Median answer time; null without an answer'),
      p95_ms: ms('95th percentile of the answer time'),
      p99_ms: ms('99th percentile of the answer time'),
      max_ms: ms('Longest answer time'),
      callerrors: z.number().int().meta({ description: 'Answers that were CALLERRORs' }),
      timeouts: z.number().int().meta({ description: 'CALLs not answered within the call timeout' }),
    }),
  ),
});
