// E11-E16 and the EV-session commands: resolve the target, queue one command per charger over
// MQTT (202 with the queued command result), and poll a command (E16) once a charger received it.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { ApiError, badRequest, notFound, ValidationError, type ValidationIssue } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import { commandBodies, commandIdPath } from '../schemas/commands.ts';
import { COMMAND_KINDS, EVENT_TYPES, type AnyPayload } from '../../engine/commands/command-kinds.ts';
import { resolveTarget } from '../../engine/commands/command-targets.ts';
import { BrokerUnavailableError } from '../../engine/commands/command-producer.ts';
import { maskCommand } from '../../engine/commands/command-secrets.ts';
import { SECRET_MASK } from '../../protocols/ocpp/secret-values.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { COMMAND_DOCS } from '../schemas/command-docs.ts';
import { commandRecord, queuedCommandResult } from '../schemas/evcharger-answers.ts';

const brokerDown = (cause: unknown) =>
  new ApiError(503, 'The message producer is not started: the MQTT broker is not connected', {}, cause);

/** The body, or a 422 whose `input`s show a secret of the payload masked, as reads do. */
function parseCommand(ctx: Context, schema: z.ZodType): unknown {
  try {
    return parseBody(ctx, schema);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const shown = maskCommand(ctx.request.body);
    if (shown === ctx.request.body) throw err;
    // A secret is masked either inside the input, or as the input itself (its name is a level up).
    const safe = (i: ValidationIssue): unknown =>
      i.input !== null && typeof i.input === 'object'
        ? maskCommand(i.input)
        : valueAt(shown, i.loc.slice(1)) === SECRET_MASK
          ? SECRET_MASK
          : i.input;
    throw new ValidationError(err.issues.map((i) => ('input' in i ? { ...i, input: safe(i) } : i)));
  }
}

function valueAt(root: unknown, path: Array<string | number>): unknown {
  let v = root;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

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
        const body = parseCommand(ctx, commandBodies[eventType]) as {
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
