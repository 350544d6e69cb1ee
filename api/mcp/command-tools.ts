// Tools that send EV and operator commands to virtual chargers (E11-E15 and the EV-session
// commands of engine/commands/command-kinds.ts) and read a command's outcome (E16). One tool for
// every command: `command` names it, `target` and `payload` are the HTTP route's body.
import { z } from 'zod';
import { ApiError, badRequest, notFound, ValidationError } from '../http/errors.ts';
import { commandBodies, commandTarget, parseCommandBody } from '../schemas/commands.ts';
import { COMMAND_DOCS } from '../schemas/command-docs.ts';
import { EVENT_TYPES, type AnyPayload, type EventType } from '../../engine/commands/command-kinds.ts';
import { resolveTarget } from '../../engine/commands/command-targets.ts';
import { BrokerUnavailableError } from '../../engine/commands/command-producer.ts';
import { maskCommand } from '../../engine/commands/command-secrets.ts';
import { defineTool, type ToolGroup } from './tool-kit.ts';

/** Each command with its summary and an example payload: what an agent needs to write one. */
const COMMAND_LIST = EVENT_TYPES.map((type) => {
  const example = Object.values(COMMAND_DOCS[type].examples)[0]?.body as { payload?: unknown } | undefined;
  const payload = example?.payload === undefined ? '' : ` e.g. payload ${JSON.stringify(example.payload)}`;
  return `- ${type}: ${COMMAND_DOCS[type].summary}${payload}`;
}).join('\n');

export const commandTools: ToolGroup = (server, scope) => {
  const { deps, org } = scope;

  defineTool(
    server,
    scope,
    'send_command',
    {
      title: 'Send a command to chargers',
      description:
        'Queue an EV or operator command for each targeted charger: one charger (`target.deployment_id` or `target.identity`) or the chargers of a location (`target.location_id`, narrowed by `target.charger_ids`). Answers the queued command ids; read the outcome with get_command. Commands:\n' +
        COMMAND_LIST,
      input: z.object({
        command: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
        target: commandTarget,
        payload: z.record(z.string(), z.unknown()).optional().describe("The command's fields (see the list)"),
      }),
    },
    async ({ command, target, payload }) => {
      const body = parseCommandBody(
        commandBodies[command],
        payload === undefined ? { target } : { target, payload },
      ) as { target: Parameters<typeof resolveTarget>[2]; payload: AnyPayload };
      const resolved = await resolveTarget(deps.platform.db, org, body.target);
      if (resolved.kind === 'invalid') throw badRequest(resolved.detail);
      if (resolved.kind === 'not_found') throw notFound(resolved.detail);
      let outcome;
      try {
        outcome = await deps.commands.producer.queue(
          org,
          command,
          body.payload,
          resolved.chargers,
          resolved.failed,
        );
      } catch (err) {
        if (err instanceof BrokerUnavailableError)
          throw new ApiError(
            503,
            'The message producer is not started: the MQTT broker is not connected',
            {},
            err,
          );
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
      return outcome.result;
    },
  );

  defineTool(
    server,
    scope,
    'get_command',
    {
      title: 'Get a command',
      description:
        "One command and its status (queued, received, succeeded, failed, ...) with the charger's result. Not found until the charger has received it.",
      input: z.object({ command_id: z.string().min(1).max(64) }),
      readOnly: true,
    },
    async ({ command_id }) => {
      const record = await deps.commands.store.get(org, command_id);
      if (!record) throw notFound(`Command '${command_id}' not found`);
      return record;
    },
  );
};
