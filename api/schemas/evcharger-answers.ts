// Shapes of the answers of the evcharger area (E1-E16, the deployment list and detail, the OCPP
// message log), for the API description: what a client can rely on. Records that may gain fields
// are loose objects.
import { z } from 'zod';
import { STAGE_OUTCOMES, STAGES } from '../../actors/charger/charger-ports.ts';
import { COMMAND_STATUSES } from '../../engine/commands/command-outcome.ts';
import { EVENT_TYPES } from '../../engine/commands/command-kinds.ts';
import { RUNTIME_ACTIONS } from '../../engine/deployments/deployment-service.ts';
import { OCPP_VERSIONS } from '../../protocols/ocpp/versions.ts';

const dateTime = z.iso.datetime({ offset: true });
const nullable = <T extends z.ZodType>(s: T) => s.nullable();

const paged = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

export const catalogBrand = z.looseObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  created_at: dateTime,
});
export const catalogModel = z.looseObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  brand_slug: nullable(z.string()).optional(),
  brand_id: nullable(z.string()).optional(),
  connector_count: nullable(z.number().int()).optional(),
  current_type: nullable(z.string()).optional(),
  supported_kwh: nullable(z.array(z.number())).optional(),
  connector_types: nullable(z.array(z.string())).optional(),
  max_power_kw: nullable(z.number()).optional(),
  ocpp_versions: nullable(z.array(z.string())).optional(),
  created_at: nullable(dateTime).optional(),
});
export const brandPage = paged(catalogBrand);
export const modelPage = paged(catalogModel);

export const templateList = z.object({
  count: z.number().int(),
  filters: z.object({
    ocpp_version: nullable(z.string()),
    ocpi_version: nullable(z.string()),
    connector_type: nullable(z.string()),
    include_all: z.boolean(),
  }),
  templates: z.array(
    z.looseObject({
      name: z.string(),
      slug: z.string(),
      description: z.string(),
      cpo_name: z.string(),
      cpo_slug: z.string(),
      party_id: z.string(),
      ocpp_version: z.string(),
      ocpi_version: z.string(),
      connector_type: z.string(),
      body: z
        .record(z.string(), z.unknown())
        .meta({ description: 'A ready body for POST /evcharger/location' }),
    }),
  ),
});

export const deploymentCreated = z.object({
  id: z.string(),
  deployment_id: z.string(),
  identity: z.string(),
  ocpp_version: z.string().meta({ description: `Lower case: ${OCPP_VERSIONS.join(', ')}` }),
  provisioning_state: z.literal('READY'),
});

export const locationAccepted = z.object({
  detail: z.string(),
  location_id: z.string().meta({
    description:
      'Use it to delete the location, stop / start / restart its chargers, send them commands and list them',
  }),
  failed: z
    .array(
      z.object({
        identity: z.string(),
        code: z.string().meta({
          description:
            'UNKNOWN_MODEL, BRAND_MISMATCH, OCPP_VERSION_UNSUPPORTED, IDENTITY_TAKEN, IDENTITY_REGISTERED_ELSEWHERE or DEPLOY_FAILED',
        }),
        hint: z.string(),
      }),
    )
    .meta({
      description:
        'Chargers of the body that cannot be deployed, known at acceptance; the others deploy. Later failures show in the deployment list and stage events.',
    }),
});

export const runtimeOpAccepted = z.object({ detail: z.string(), location_id: z.string() });
export const runtimeOpResult = z.object({
  action: z.enum(RUNTIME_ACTIONS),
  target_type: z.literal('deployment'),
  location_id: nullable(z.string()),
  accepted_count: z.number().int(),
  failed_count: z.number().int(),
  results: z.array(
    z.object({
      deployment_id: z.string(),
      status: z.literal('accepted'),
      response: z.object({ action: z.enum(RUNTIME_ACTIONS), status: z.literal('PENDING') }),
    }),
  ),
});

export const stageEvent = z.object({
  identity: z.string(),
  attempt: z.number().int(),
  stage: z.enum(STAGES),
  outcome: z.enum(STAGE_OUTCOMES),
  at: dateTime,
  code: z.string().optional(),
  hint: z.string().optional(),
});
export const stageEvents = z.object({ events: z.array(stageEvent) });

export const locationList = z.object({
  items: z.array(
    z.object({
      location_id: z.string(),
      name: z.string(),
      chargers: z.number().int().meta({ description: "the location's deployed chargers" }),
      running: z.number().int().meta({
        description: 'of those, the ones asked to run (not stopped): what commands and traffic reach',
      }),
      created_at: dateTime,
    }),
  ),
  next_offset: nullable(z.number().int()),
});

export const deploymentList = z.object({
  items: z.array(
    z.object({
      deployment_id: nullable(z.string()).meta({ description: 'null for a location charger never deployed' }),
      identity: z.string(),
      ocpp_version: nullable(z.string()),
      model: z.string(),
      location_id: nullable(z.string()),
      stage: z.enum(STAGES),
      outcome: z.enum(STAGE_OUTCOMES),
      code: nullable(z.string()),
      hint: nullable(z.string()),
      updated_at: dateTime,
    }),
  ),
  next_offset: nullable(z.number().int()),
});

export const deploymentDetail = z.object({
  deployment_id: z.string(),
  identity: z.string(),
  ocpp_version: z.string(),
  model: z.string(),
  location_id: nullable(z.string()),
  stage: z.enum(STAGES),
  outcome: z.enum(STAGE_OUTCOMES),
  security: z.object({ profile: z.number().int(), has_password: z.boolean(), has_client_cert: z.boolean() }),
  connectors: z.array(
    z.object({
      connector_id: z.number().int(),
      evse_id: nullable(z.number().int()).meta({ description: 'null for OCPP 1.6' }),
      status: z.string(),
      transaction_id: nullable(z.string()),
      energy_wh: z.number(),
      power_w: z.number(),
      soc: nullable(z.number()),
      ev_connected: z.boolean(),
      id_tag: nullable(z.string()),
      cost: nullable(z.number()).meta({
        description:
          "OCPP 2.0.1 I02: the running transaction's total cost, as the central system's last CostUpdated said",
      }),
      cost_updated_at: nullable(dateTime),
    }),
  ),
  charging_profiles: z.array(
    z.looseObject({
      id: z.number().int(),
      connector_id: z.number().int(),
      stack_level: z.number().int(),
      purpose: z.string(),
      unit: z.enum(['W', 'A']),
      periods: z.array(
        z.object({ start_period: z.number(), limit: z.number(), number_phases: nullable(z.number().int()) }),
      ),
      start_at: nullable(dateTime),
      duration: nullable(z.number()),
      transaction_id: nullable(z.string()),
      valid_to: nullable(dateTime),
    }),
  ),
  configuration: z.array(
    z.object({
      key: z.string().meta({ description: '1.6: the key; 2.0.1: Component.Variable' }),
      value: z.string().meta({ description: 'Secrets are masked' }),
      readonly: z.boolean(),
    }),
  ),
  last_heartbeat_at: nullable(dateTime),
  display_message: nullable(
    z.object({
      id: z.number().int(),
      priority: z.string(),
      state: nullable(z.string()),
      format: z.string(),
      language: nullable(z.string()),
      content: z.string(),
      start_at: nullable(dateTime),
      end_at: nullable(dateTime),
      transaction_id: nullable(z.string()),
      kept: z.number().int(),
    }),
  ).meta({ description: 'OCPP 2.0.1 block O: the display message on show now, null when none' }),
  updated_at: dateTime,
});

export const queuedCommandResult = z.object({
  targeted_count: z.number().int(),
  queued_count: z.number().int(),
  failed_count: z.number().int(),
  results: z.array(
    z.object({
      charger_id: z.string(),
      identity: z.string(),
      command: z.object({
        id: z.string().meta({ description: 'Poll it with GET /evcharger/commands/{command_id}' }),
        event_type: z.enum(EVENT_TYPES),
        ocpp_version: z.string(),
        payload: z.record(z.string(), z.unknown()),
      }),
    }),
  ),
  failed: z.array(z.object({ error: z.string(), identity: z.string().optional() })),
});

export const commandRecord = z.object({
  id: z.string(),
  charger_id: z.string(),
  identity: z.string(),
  event_type: z.string(),
  status: z.enum(COMMAND_STATUSES as readonly [string, ...string[]]).meta({
    description:
      'queued, received (by the charger), sent (to the central system), then final: completed, rejected, failed, timed_out, or interrupted (the engine node running it stopped before its outcome was recorded; never run again)',
  }),
  payload: z.record(z.string(), z.unknown()),
  response: nullable(z.record(z.string(), z.unknown())).meta({ description: 'The OCPP answer' }),
  error: nullable(z.object({ code: z.string(), description: z.string().optional() })),
  created_at: dateTime,
  received_at: nullable(dateTime),
  completed_at: nullable(dateTime),
});
export const commandList = z.object({
  items: z.array(commandRecord),
  next_offset: nullable(z.number().int()),
});

export const ocppLogItem = z.object({
  id: z.string().meta({ description: 'Increasing per charger; pass it as `before` for older items' }),
  at: dateTime,
  direction: z.enum(['in', 'out']),
  type: z.enum(['CALL', 'CALLRESULT', 'CALLERROR']),
  message_id: z.string(),
  action: nullable(z.string()),
  frame: z.array(z.unknown()).meta({ description: 'The OCPP-J frame exactly as it crossed the wire' }),
  error: nullable(z.string()).meta({ description: 'Schema validation error, or null' }),
});
export const ocppLogPage = z.object({ items: z.array(ocppLogItem), next_before: nullable(z.string()) });
export const eventStream = z
  .string()
  .meta({ description: 'Server-Sent Events: `event: frame`, `id: <item id>`, `data: <log item JSON>`' });
