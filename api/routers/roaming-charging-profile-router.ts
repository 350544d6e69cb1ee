// E26: the CPO's ActiveChargingProfile callback to an eMSP partner, answered with the outcome.
import Router from '@koa/router';
import { z } from 'zod';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { intString, parseBody, parsePath, parseQuery, validateAll } from '../http/validation.ts';
import { activeChargingProfileSchema } from '../../protocols/ocpi/charging-profile.ts';
import { OCPI_VERSION_SEGMENTS } from '../../protocols/ocpi/versions.ts';
import type { ChargingProfileResult } from '../../engine/roaming/charging-profile-callback.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { chargingProfileOutcome } from '../schemas/emsp-answers.ts';

const pathSchema = z.object({
  version: z.enum(['221', '230']),
  session_id: z.string().min(1).max(36),
});
const querySchema = z.object({ partner_id: intString(z.number().min(1).max(Number.MAX_SAFE_INTEGER)) });

export function roamingChargingProfileRouter({ emsp }: ApiDeps): Router {
  const router = new Router();

  router.put(
    '/ocpi/cpo/:version/sessions/:session_id/charging-profile',
    apiDoc({
      summary: "Send the session's active charging profile to an eMSP partner (OCPI callback)",
      path: pathSchema,
      query: querySchema,
      body: activeChargingProfileSchema,
      examples: {
        sixKw: {
          path: { version: '221', session_id: 'SESSION-DOC-1' },
          query: { partner_id: 1 },
          body: {
            start_date_time: '2026-01-01T10:00:00Z',
            charging_profile: {
              charging_rate_unit: 'W',
              duration: 3600,
              charging_profile_period: [{ start_period: 0, limit: 6000 }],
            },
          },
        },
      },
      responses: {
        200: { description: "The outcome of the partner's call", schema: chargingProfileOutcome },
      },
      errors: {
        400: 'Rejected under a business rule, or the partner has no chargingprofiles endpoint',
        404: 'Roaming partner not found',
        502: 'The partner failed or is unreachable',
        504: 'The partner did not answer in time',
      },
    }),
    async (ctx) => {
      const [path, query, body] = validateAll(
        () => parsePath(ctx, pathSchema),
        () => parseQuery(ctx, querySchema),
        () => parseBody(ctx, activeChargingProfileSchema),
      );
      const result = await emsp.chargingProfiles.send({
        orgId: orgOf(ctx),
        partnerId: query.partner_id,
        version: OCPI_VERSION_SEGMENTS[path.version],
        sessionId: path.session_id,
        profile: body,
        correlationId: ctx.state.requestId,
      });
      ctx.body = outcomeOrThrow(result);
    },
  );

  return router;
}

function outcomeOrThrow(result: ChargingProfileResult) {
  switch (result.kind) {
    case 'accepted':
      return result.outcome;
    case 'partner_not_found':
      throw notFound(result.detail);
    case 'version_mismatch':
    case 'missing_endpoint':
    case 'rejected':
      throw badRequest(result.detail);
    case 'failed':
      throw new ApiError(result.status, result.detail);
  }
}
