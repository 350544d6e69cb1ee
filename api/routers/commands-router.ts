// E11-E16 and the EV-session commands: resolve the target, queue one command per charger over
// MQTT (202 with the queued command result), and poll a command (E16) once a charger received it.
import Router from '@koa/router';
import { ApiError, badRequest, notFound, ValidationError } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { commandBodies, commandIdPath } from '../schemas/commands.ts';
import { COMMAND_KINDS, EVENT_TYPES, type AnyPayload } from '../../engine/commands/command-kinds.ts';
import { resolveTarget } from '../../engine/commands/command-targets.ts';
import { BrokerUnavailableError } from '../../engine/commands/command-producer.ts';
import type { ApiDeps } from '../http/deps.ts';

const brokerDown = (cause: unknown) =>
  new ApiError(503, 'The message producer is not started: the MQTT broker is not connected', {}, cause);

export function commandsRouter({ platform, commands }: ApiDeps): Router {
  const router = new Router();

  for (const eventType of EVENT_TYPES) {
    router.post(`/evcharger/commands/${COMMAND_KINDS[eventType].path}`, async (ctx) => {
      const body = parseBody(ctx, commandBodies[eventType]) as {
        target: Parameters<typeof resolveTarget>[2];
        payload: AnyPayload;
      };
      const orgId = orgOf(ctx);
      const target = await resolveTarget(platform.db, orgId, body.target);
      if (target.kind === 'invalid') throw badRequest(target.detail);
      if (target.kind === 'not_found') throw notFound(target.detail);
      let outcome;
      try {
        outcome = await commands.producer.queue(
          orgId,
          eventType,
          body.payload,
          target.chargers,
          target.failed,
        );
      } catch (err) {
        if (err instanceof BrokerUnavailableError) throw brokerDown(err);
        throw err;
      }
      if (outcome.kind === 'mismatch')
        throw new ValidationError([
          { loc: ['body', 'payload'], msg: outcome.problem, type: 'value_error', input: body.payload },
        ]);
      ctx.status = 202;
      ctx.body = outcome.result;
    });
  }

  // E16
  router.get('/evcharger/commands/:command_id', async (ctx) => {
    const { command_id } = parsePath(ctx, commandIdPath);
    const record = await commands.store.get(orgOf(ctx), command_id);
    if (!record) throw notFound(`Command '${command_id}' not found`);
    ctx.body = record;
  });

  return router;
}
