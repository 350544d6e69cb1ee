// Link conditions and chaos (docs/faults.md): a bad network between virtual chargers and their
// central system, on purpose. PUT sets the conditions in force on one charger or on every running
// charger of a location (sent to the nodes holding them, not stored), DELETE clears them.
import Router from '@koa/router';
import type { Context } from 'koa';
import { brokerUnavailable, conflict, notFound } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { deploymentPath } from '../schemas/deployment-detail.ts';
import {
  conditionsOf,
  linkConditionsAnswer,
  linkConditionsBody,
  locationLinkPath,
  misbehaviourAccepted,
  misbehaviourBody,
} from '../schemas/link-conditions.ts';
import { BrokerUnavailableError } from '../../engine/commands/command-producer.ts';
import type { LinkConditionsOutcome } from '../../engine/commands/link-conditions-bus.ts';

const DEPLOYMENT = '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11';
const LOCATION = '7d0c2b1e-5a43-4d8f-9c1e-0f2a4b6c8d10';

const EXAMPLE_BODY = {
  latency_ms: { to_csms: 200, from_csms: 50 },
  jitter_ms: 20,
  drop: { to_csms: 0.02, from_csms: 0 },
  duplicate: 0.01,
  unanswered: 0.05,
  seed: 42,
};

const DESCRIPTION =
  'Any of latency_ms and jitter_ms (ms; `{to_csms, from_csms}` or one number for both), drop and duplicate ' +
  '(probability per frame, the same two forms), reorder_window_ms, unanswered (probability that an answer ' +
  'is withheld), half_open (the connection carries nothing and answers no ping until the charger gives up ' +
  'on it) and seed (the same seed gives the same faults in the same order on each charger; drawn when left ' +
  'out). A field left out is no fault. In force at once, on the chargers running now, until DELETE or the ' +
  "charger's actor ends (stop, restart, the node's restart): not persisted. Each injected fault is a " +
  'message-log item with `injected`. See docs/faults.md.';

async function send(ctx: Context, what: string, run: () => Promise<LinkConditionsOutcome>) {
  let outcome: LinkConditionsOutcome;
  try {
    outcome = await run();
  } catch (err) {
    if (err instanceof BrokerUnavailableError)
      throw brokerUnavailable('link conditions cannot reach the chargers', err);
    throw err;
  }
  if (outcome.kind === 'not_found') throw notFound(`${what} not found`);
  if (outcome.kind === 'not_running')
    throw conflict(`${what} is not running: link conditions apply to a running charger (start it first)`);
  return outcome.chargers;
}

export function linkConditionsRouter({ commands }: ApiDeps): Router {
  const router = new Router();
  const bus = commands.linkConditions;

  router.put(
    '/evcharger/deployments/:deployment_id/link',
    apiDoc({
      summary: 'Set the link conditions of one charger (latency, loss, duplicates, half-open, ...)',
      description: DESCRIPTION,
      path: deploymentPath,
      body: linkConditionsBody,
      examples: { one: { path: { deployment_id: DEPLOYMENT }, body: EXAMPLE_BODY } },
      responses: { 200: { description: 'The conditions in force', schema: linkConditionsAnswer } },
      errors: {
        404: 'Deployment not found',
        409: 'The charger is not running',
        503: 'The message broker is not connected',
      },
    }),
    async (ctx) => {
      const { deployment_id } = parsePath(ctx, deploymentPath);
      const conditions = conditionsOf(parseBody(ctx, linkConditionsBody));
      const chargers = await send(ctx, `Deployment '${deployment_id}'`, () =>
        bus.forDeployment(orgOf(ctx), deployment_id, conditions),
      );
      ctx.body = { ...conditions, chargers };
    },
  );

  router.delete(
    '/evcharger/deployments/:deployment_id/link',
    apiDoc({
      summary: 'Clear the link conditions of one charger',
      path: deploymentPath,
      examples: { one: { path: { deployment_id: DEPLOYMENT } } },
      responses: { 204: { description: 'Cleared: frames held by a latency go at once' } },
      errors: {
        404: 'Deployment not found',
        409: 'The charger is not running',
        503: 'The message broker is not connected',
      },
    }),
    async (ctx) => {
      const { deployment_id } = parsePath(ctx, deploymentPath);
      await send(ctx, `Deployment '${deployment_id}'`, () =>
        bus.forDeployment(orgOf(ctx), deployment_id, null),
      );
      ctx.status = 204;
    },
  );

  router.post(
    '/evcharger/deployments/:deployment_id/link/misbehave',
    apiDoc({
      summary: 'The charger misbehaves once on purpose: raw text, an edited CALL, a wrong message id',
      description:
        '`raw_text` is written on the socket now, exactly as given (invalid JSON, a CALL breaking its schema, ' +
        "an answer to a CALL never made); `edit_next_call` replaces fields of the next CALL of `action` the charger writes; `wrong_message_id` sends the charger's next answer under another message id. " +
        'Done on the node holding the charger; the message log shows it with `injected`. See docs/faults.md.',
      path: deploymentPath,
      body: misbehaviourBody,
      examples: {
        invalidJson: {
          path: { deployment_id: DEPLOYMENT },
          body: { kind: 'raw_text', text: '[2,"x1","Heartbeat",{' },
        },
        breakSchema: {
          path: { deployment_id: DEPLOYMENT },
          body: { kind: 'edit_next_call', action: 'StatusNotification', payload: { status: 'Frobnicated' } },
        },
        wrongId: { path: { deployment_id: DEPLOYMENT }, body: { kind: 'wrong_message_id' } },
      },
      responses: { 202: { description: 'Sent to the charger', schema: misbehaviourAccepted } },
      errors: {
        404: 'Deployment not found',
        409: 'The charger is not running',
        503: 'The message broker is not connected',
      },
    }),
    async (ctx) => {
      const { deployment_id } = parsePath(ctx, deploymentPath);
      const m = parseBody(ctx, misbehaviourBody);
      await send(ctx, `Deployment '${deployment_id}'`, () => bus.misbehave(orgOf(ctx), deployment_id, m));
      ctx.status = 202;
      ctx.body = {
        detail:
          m.kind === 'raw_text'
            ? 'Sent to the charger: written on its connection if it has one open'
            : 'Sent to the charger: it changes the next frame it applies to',
      };
    },
  );

  router.put(
    '/evcharger/locations/:location_id/link',
    apiDoc({
      summary: 'Set the link conditions of every running charger of a location',
      description: `${DESCRIPTION} Each charger draws its own faults from the seed and its identity.`,
      path: locationLinkPath,
      body: linkConditionsBody,
      examples: { one: { path: { location_id: LOCATION }, body: EXAMPLE_BODY } },
      responses: { 200: { description: 'The conditions in force', schema: linkConditionsAnswer } },
      errors: { 404: 'Location not found', 503: 'The message broker is not connected' },
    }),
    async (ctx) => {
      const { location_id } = parsePath(ctx, locationLinkPath);
      const conditions = conditionsOf(parseBody(ctx, linkConditionsBody));
      const chargers = await send(ctx, `Location '${location_id}'`, () =>
        bus.forLocation(orgOf(ctx), location_id, conditions),
      );
      ctx.body = { ...conditions, chargers };
    },
  );

  router.delete(
    '/evcharger/locations/:location_id/link',
    apiDoc({
      summary: 'Clear the link conditions of every running charger of a location',
      path: locationLinkPath,
      examples: { one: { path: { location_id: LOCATION } } },
      responses: { 204: { description: 'Cleared' } },
      errors: { 404: 'Location not found', 503: 'The message broker is not connected' },
    }),
    async (ctx) => {
      const { location_id } = parsePath(ctx, locationLinkPath);
      await send(ctx, `Location '${location_id}'`, () => bus.forLocation(orgOf(ctx), location_id, null));
      ctx.status = 204;
    },
  );

  return router;
}
