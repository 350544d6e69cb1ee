// How the central system under test answers the organization's chargers (issue 36): the figures
// of GET /evcharger/fleet/csms-latency, per OCPP version and action.
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import { csmsLatencyQuery } from '../schemas/fleet.ts';
import { defineTool, type ToolGroup } from './tool-kit.ts';

export const measurementTools: ToolGroup = (server, scope) => {
  const { deps, org } = scope;
  defineTool(
    server,
    scope,
    'csms_latency',
    {
      title: 'Central system answer times',
      description:
        "How fast the central system under test answers the organization's chargers, per OCPP version and action the chargers send: `count` answers, `p50_ms`, `p95_ms`, `p99_ms`, `max_ms`, `callerrors`, `timeouts` (no answer within the call timeout). `window`: the last minute, the last 15 minutes, or since start; optionally one location. Summed over the engine nodes.",
      input: z.object({
        location_id: csmsLatencyQuery.shape.location_id,
        window: z.enum(['1m', '15m', 'all']).default('15m'),
      }),
      readOnly: true,
    },
    async ({ location_id, window }) => {
      if (location_id !== undefined && !(await deps.deployments.store.locationExists(org, location_id)))
        throw notFound(`Location '${location_id}' not found`);
      return { window, items: await deps.metrics.latency(org, location_id, window) };
    },
  );
};
