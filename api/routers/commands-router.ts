// E11-E16 and the EV-session commands: resolve the target, queue one command per charger over
// MQTT (202 with the queued command result), and poll a command (E16) once a charger received it.
import Router from '@koa/router';
import { ApiError, badRequest, notFound, ValidationError } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parsePath } from '../http/validation.ts';
import { commandBodies, commandIdPath, parseCommandBody } from '../schemas/commands.ts';
import { COMMAND_KINDS, EVENT_TYPES, type AnyPayload } from '../../engine/commands/command-kinds.ts';
import { resolveTarget } from '../../engine/commands/command-targets.ts';
import { BrokerUnavailableError } from '../../engine/commands/command-producer.ts';
import { maskCommand } from '../../engine/commands/command-secrets.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { COMMAND_DOCS } from '../schemas/command-docs.ts';
import { commandRecord, queuedCommandResult } from '../schemas/evcharger-answers.ts';

const brokerDown = (cause: unknown) =>
  new ApiError(503, 'The message producer is not started: the MQTT broker is not connected', {}, cause);

export function commandsRouter({ platform, commands }: ApiDeps): Router {
  const router = new Router();

  for (const eventType of EVENT_TYPES) {
    router.post(
      `/evcharger/commands/${COMMAND_KINDS[eventType].path}`,
      apiDoc({
        summary: COMMAND_DOCS[eventType].summary,
        description:
          'Queues the command for each targeted charger (one deployment, one identity, or the chargers of a location, narrowed by charger_ids); poll each command id with GET /evcharger/commands/{command_id}.',
        body: commandBodies[eventType],
        bodyRequired: true,
        examples: COMMAND_DOCS[eventType].examples,
        responses: {
          202: { description: 'Queued', schema: queuedCommandResult },
        },
        errors: {
          400: 'Invalid command target',
          404: 'Charger not found',
          503: 'The message producer is not started (MQTT broker not connected)',
        },
      }),
      async (ctx) => {
        const body = parseCommandBody(commandBodies[eventType], ctx.request.body ?? undefined) as {
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
            {
              loc: ['body', 'payload'],
              msg: outcome.problem,
              type: 'value_error',
              input: maskCommand(body.payload),
            },
          ]);
        ctx.status = 202;
        ctx.body = outcome.result;
      },
    );
  }

  // E16
  router.get(
    '/evcharger/commands/:command_id',
    apiDoc({
      summary: 'One command and its status',
      path: commandIdPath,
      examples: { one: { path: { command_id: '3f1d7c52-8a1e-4f0b-b1c7-6a0e5d2c9b44' } } },
      responses: { 200: { description: 'The command', schema: commandRecord } },
      errors: { 404: 'Command not found (also until the charger has received it)' },
    }),
    async (ctx) => {
      const { command_id } = parsePath(ctx, commandIdPath);
      const record = await commands.store.get(orgOf(ctx), command_id);
      if (!record) throw notFound(`Command '${command_id}' not found`);
      ctx.body = record;
    },
  );

  return router;
}
