// Tools on the organization's virtual chargers: list locations and chargers with their stage,
// deploy (E5 and E7, the same bodies), stop / start / restart / delete (E9), read a charger's
// detail and its OCPP message log. Each calls what the matching HTTP route calls.
import { z } from 'zod';
import { conflict, notFound, ValidationError } from '../http/errors.ts';
import {
  DEPLOYMENTS_LIMIT_MAX,
  createDeploymentBody,
  createLocationBody,
  runtimeOpBody,
} from '../schemas/deployments.ts';
import { OCPP_LOG_LIMIT_MAX } from '../schemas/ocpp-log.ts';
import { readDeploymentDetail } from '../../engine/deployments/deployment-detail.ts';
import { FleetStore } from '../../engine/fleet/fleet-store.ts';
import { defineTool, type ToolGroup } from './tool-kit.ts';

const id = z.string().min(1).max(64);
const limit = (max: number, dflt: number) => z.number().int().min(1).max(max).default(dflt);
const offset = z.number().int().min(0).max(1_000_000).default(0);

const deploymentNotFound = (deploymentId: string) => notFound(`Deployment '${deploymentId}' not found`);
const locationNotFound = (locationId: string) => notFound(`Location '${locationId}' not found`);

export const chargerTools: ToolGroup = (server, scope) => {
  const { deps, org } = scope;
  const { service, store } = deps.deployments;

  defineTool(
    server,
    scope,
    'list_locations',
    {
      title: 'List locations',
      description:
        "The organization's virtual locations by name, each with `chargers` (deployed) and `running` (not stopped) counted. `name` keeps those whose name contains it (any case). Paged: pass `next_offset` back as `offset`.",
      input: z.object({
        name: z.string().min(1).max(200).optional(),
        limit: limit(DEPLOYMENTS_LIMIT_MAX, 50),
        offset,
      }),
      readOnly: true,
    },
    (q) => store.locations(org, q),
  );

  defineTool(
    server,
    scope,
    'fleet_summary',
    {
      title: 'Fleet summary',
      description:
        "The organization's chargers counted by stage (queued, connecting, booting, online, offline, stopped, ...) and by outcome.",
      input: z.object({}),
      readOnly: true,
    },
    () => new FleetStore(deps.platform.db).summary(org),
  );

  defineTool(
    server,
    scope,
    'list_chargers',
    {
      title: 'List chargers',
      description:
        'Virtual charger deployments with their status: `deployment_id`, `identity`, `ocpp_version`, `model`, `location_id`, `stage` (queued ... online, offline, stopped) and `outcome`. Optionally one location. Paged: pass `next_offset` back as `offset`.',
      input: z.object({
        location_id: id.optional(),
        limit: limit(DEPLOYMENTS_LIMIT_MAX, 50),
        offset,
      }),
      readOnly: true,
    },
    async (q) => {
      if (q.location_id !== undefined && !(await store.locationExists(org, q.location_id)))
        throw locationNotFound(q.location_id);
      return store.list(org, { locationId: q.location_id, limit: q.limit, offset: q.offset });
    },
  );

  defineTool(
    server,
    scope,
    'get_charger',
    {
      title: 'Get a charger',
      description:
        'One virtual charger in detail: stage, connectors (status, transaction, energy, power, EV), charging profiles, configuration (secrets masked), last heartbeat.',
      input: z.object({ deployment_id: id }),
      readOnly: true,
    },
    async ({ deployment_id }) => {
      const detail = await readDeploymentDetail(deps.platform.db, org, deployment_id);
      if (!detail) throw deploymentNotFound(deployment_id);
      return detail;
    },
  );

  defineTool(
    server,
    scope,
    'deploy_charger',
    {
      title: 'Deploy a charger',
      description:
        'Deploy one virtual charger of a catalog `model` (see list_catalog). It connects to `{ws_url}/{identity}`, or to the built-in central system without `ws_url`, in the background: follow its `stage` with get_charger. `security` sets the OCPP security profile (0-3); secrets are never returned.',
      input: createDeploymentBody,
    },
    async (body) => {
      const outcome = await service.create(org, body);
      if (outcome.kind === 'invalid')
        throw new ValidationError(
          outcome.problems.map((p) => ({
            loc: ['body', ...p.loc],
            msg: p.msg,
            type: 'value_error',
            input: p.input,
          })),
        );
      if (outcome.kind === 'conflict') throw conflict(outcome.detail);
      const { row } = outcome;
      return {
        deployment_id: row.id,
        identity: row.identity,
        ocpp_version: row.ocpp_version,
        provisioning_state: 'READY',
      };
    },
  );

  defineTool(
    server,
    scope,
    'deploy_location',
    {
      title: 'Deploy a location',
      description:
        'Create a location and deploy its chargers in the background: one by one (`chargers`) or in groups (`charger_groups`: `count` chargers named `{identity_prefix}{number}`). Answers the `location_id` and the chargers that cannot be deployed (`failed`). Ready bodies: list_templates.',
      input: createLocationBody,
    },
    async (body) => {
      const accepted = await service.acceptLocation(org, {
        name: body.name,
        body,
        chargers: body.chargers ?? [],
        groups: body.charger_groups ?? [],
        ocppVersion: body.ocpp_version,
      });
      return { location_id: accepted.locationId, deploying: accepted.deploying, failed: accepted.failed };
    },
  );

  defineTool(
    server,
    scope,
    'charger_runtime_op',
    {
      title: 'Stop, start, restart or delete chargers',
      description:
        '`action` on exactly one target: a `deployment_id` (applied before answering, with the result) or a `location_id` (every charger of the location, in the background).',
      input: runtimeOpBody,
      destructive: true,
    },
    async (body) => {
      if ((body.deployment_id === undefined) === (body.location_id === undefined))
        throw new ValidationError([
          {
            loc: ['body'],
            msg: 'Give exactly one target: deployment_id or location_id',
            type: 'value_error',
            input: body,
          },
        ]);
      if (body.deployment_id !== undefined) {
        const result = await service.runtimeOp(org, body.action, body.deployment_id);
        if (!result) throw deploymentNotFound(body.deployment_id);
        return result;
      }
      const locationId = body.location_id!;
      if (!(await service.runtimeOpLocation(org, body.action, locationId)))
        throw locationNotFound(locationId);
      return {
        detail: `Runtime operation ${body.action} accepted for every charger of the location; it runs in the background`,
        location_id: locationId,
      };
    },
  );

  defineTool(
    server,
    scope,
    'read_message_log',
    {
      title: "Read a charger's OCPP message log",
      description:
        "A charger's OCPP frames, newest first: `direction` `out` = sent by the charger, `in` = received from the central system; `type` CALL / CALLRESULT / CALLERROR; `frame` the exact OCPP-J array; `error` a schema violation or null. Filter by `action` or `direction`; page with `before` = the `next_before` of the previous page.",
      input: z.object({
        deployment_id: id,
        limit: limit(OCPP_LOG_LIMIT_MAX, 50),
        before: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
        action: z.string().min(1).max(100).optional(),
        direction: z.enum(['in', 'out']).optional(),
      }),
      readOnly: true,
    },
    async ({ deployment_id, ...q }) => {
      const owner = await deps.messageLog.store.deploymentOwner(org, deployment_id);
      if (!owner) throw deploymentNotFound(deployment_id);
      const page = await deps.messageLog.store.page(owner.key, q);
      // Items are stored as JSON texts, each frame as it crossed the wire.
      return { items: page.items.map((item) => JSON.parse(item) as unknown), next_before: page.nextBefore };
    },
  );
};
