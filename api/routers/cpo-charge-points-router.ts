// E22 charge points, their credentials for the built-in central system, E23 reboot, any CALL an
// operator has the central system send, and what the central system recorded (connectors,
// sessions, operations).
import Router from '@koa/router';
import { ValidationError, brokerUnavailable, conflict, notFound, upstreamFailed } from '../http/errors.ts';
import { orgOf } from '../http/auth.ts';
import { parseBody, parsePath } from '../http/validation.ts';
import {
  chargePointCallBody,
  chargePointPath,
  createChargePointBody,
  operationPath,
} from '../schemas/cpo-charge-points.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { VERSION_PROFILES } from '../../protocols/ocpp/versions.ts';
import {
  chargePoint,
  chargePointCallAnswer,
  connectorStatuses,
  credentials,
  operation,
  rebootSent,
  sessions,
} from '../schemas/cpo-answers.ts';

export function cpoChargePointsRouter({ cpo, platform }: ApiDeps): Router {
  const router = new Router();
  const notRegistered = (id: string) => notFound(`Charge point '${id}' not found`);

  // E22
  router.post(
    '/cpo/charge-points',
    apiDoc({
      summary: 'Register a charge point at the built-in central system (starts offline)',
      body: createChargePointBody,
      examples: {
        one: {
          body: {
            charge_point_id: 'CP-DOC-100',
            ocpp_version: 'ocpp2.0.1',
            charge_point_vendor: 'ABB',
            charge_point_model: 'Terra AC',
            max_power_kw: 22,
            connector_count: 2,
            connector_type: 'IEC_62196_T2',
          },
        },
      },
      responses: { 201: { description: 'The charge point', schema: chargePoint } },
      errors: { 404: 'Location not found', 409: 'OCPP identity already registered' },
    }),
    async (ctx) => {
      const body = parseBody(ctx, createChargePointBody);
      const outcome = await cpo.registry.register(orgOf(ctx), body);
      if (outcome.kind === 'location_not_found') throw notFound(`Location ${body.location_id} not found`);
      if (outcome.kind === 'identity_taken')
        throw conflict(`Charge point identity '${body.charge_point_id}' is already registered`);
      ctx.status = 201;
      ctx.body = outcome.chargePoint;
    },
  );

  router.get(
    '/cpo/charge-points/:charge_point_id',
    apiDoc({
      summary: 'One charge point',
      path: chargePointPath,
      examples: { one: { path: { charge_point_id: 'CP-DOC-100' } } },
      responses: { 200: { description: 'The charge point', schema: chargePoint } },
      errors: { 404: 'Charge point not found' },
    }),
    async (ctx) => {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const found = await cpo.chargePoints.get(orgOf(ctx), charge_point_id);
      if (!found) throw notRegistered(charge_point_id);
      ctx.body = found;
    },
  );

  router.post(
    '/cpo/charge-points/:charge_point_id/credentials',
    apiDoc({
      summary: 'Issue Basic auth credentials for the OCPP endpoint (replaces earlier ones)',
      path: chargePointPath,
      examples: { one: { path: { charge_point_id: 'CP-DOC-100' } } },
      responses: { 201: { description: 'The credentials, shown once', schema: credentials } },
      errors: { 404: 'Charge point not found' },
    }),
    async (ctx) => {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const credentials = await cpo.chargePoints.issueCredentials(orgOf(ctx), charge_point_id);
      if (!credentials) throw notRegistered(charge_point_id);
      ctx.status = 201;
      ctx.body = credentials;
    },
  );

  // E23
  router.post(
    '/cpo/charge-points/:charge_point_id/reboot',
    apiDoc({
      summary: 'Soft reset of a connected charge point',
      path: chargePointPath,
      examples: { one: { path: { charge_point_id: 'CP-DOC-100' } } },
      responses: { 200: { description: "Sent; the charger's answer", schema: rebootSent } },
      errors: {
        404: 'Charge point not found',
        409: 'Charge point not connected',
        502: 'The charge point answered with an error or disconnected',
        503: 'The MQTT broker is not connected',
        504: 'The charge point did not answer in time',
      },
    }),
    async (ctx) => {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const outcome = await cpo.chargePointOperations.reboot(orgOf(ctx), charge_point_id);
      const timeoutMs = platform.config.centralSystem.callTimeoutMs;
      switch (outcome.kind) {
        case 'sent':
          ctx.body = outcome.operation;
          return;
        case 'not_found':
          throw notRegistered(charge_point_id);
        case 'offline':
          throw conflict(`Charge point '${charge_point_id}' is not connected to the central system`);
        case 'broker_unavailable':
          throw brokerUnavailable('the central system cannot be reached');
        case 'call_error':
          throw upstreamFailed(
            502,
            `Charge point answered Reset with ${outcome.code}: ${outcome.description}`,
          );
        case 'closed':
          throw upstreamFailed(502, `Charge point '${charge_point_id}' disconnected before answering Reset`);
        case 'timeout':
          throw upstreamFailed(
            504,
            `Charge point '${charge_point_id}' did not answer Reset within ${timeoutMs} ms`,
          );
      }
    },
  );

  router.post(
    '/cpo/charge-points/:charge_point_id/calls',
    apiDoc({
      summary: 'Have the built-in central system send an OCPP CALL to a connected charge point',
      description:
        "`action` is one of the charge point's OCPP version (1.6: `RemoteStartTransaction`, `ChangeConfiguration`, " +
        '`GetConfiguration`, ...; 2.0.1 / 2.1: `RequestStartTransaction`, `SetVariables`, `GetVariables`, ...); ' +
        "`payload` is checked against that version's official schema (422 with `loc` into `payload`). " +
        "The answer holds the charge point's CALLRESULT payload (`response`) or its CALLERROR (`error`). " +
        "The CALL and its answer are recorded in the charge point's message log.",
      path: chargePointPath,
      body: chargePointCallBody,
      examples: {
        trigger: {
          path: { charge_point_id: 'CP-DOC-100' },
          body: { action: 'TriggerMessage', payload: { requestedMessage: 'Heartbeat' } },
        },
      },
      responses: { 200: { description: "The charge point's answer", schema: chargePointCallAnswer } },
      errors: {
        404: 'Charge point not found',
        409: 'Charge point not connected (or disconnected before answering)',
        504: 'The charge point did not answer in time',
      },
    }),
    async (ctx) => {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const { action, payload } = parseBody(ctx, chargePointCallBody);
      const outcome = await cpo.chargePointOperations.send(orgOf(ctx), charge_point_id, action, payload);
      const timeoutMs = platform.config.centralSystem.callTimeoutMs;
      switch (outcome.kind) {
        case 'answered':
          ctx.body = { action, response: outcome.response };
          return;
        case 'call_error':
          ctx.body = {
            action,
            error: { code: outcome.code, description: outcome.description, details: outcome.details },
          };
          return;
        case 'not_found':
          throw notRegistered(charge_point_id);
        case 'offline':
          throw conflict(`Charge point '${charge_point_id}' is not connected to the central system`);
        case 'unknown_action':
          throw new ValidationError([
            {
              loc: ['body', 'action'],
              msg: `${action} is not an action of OCPP ${VERSION_PROFILES[outcome.version].label}, the version the charge point is connected with`,
              type: 'ocpp_action',
              input: action,
            },
          ]);
        case 'invalid_payload':
          throw new ValidationError([
            {
              loc: ['body', 'payload', ...outcome.issue.path],
              msg: `${action}Request ${outcome.issue.message} (OCPP ${VERSION_PROFILES[outcome.version].label} schema)`,
              type: 'ocpp_schema',
              ctx: { keyword: outcome.issue.keyword },
            },
          ]);
        case 'broker_unavailable':
          throw brokerUnavailable('the central system cannot be reached');
        case 'closed':
          throw conflict(`Charge point '${charge_point_id}' disconnected before answering ${action}`);
        case 'timeout':
          throw upstreamFailed(
            504,
            `Charge point '${charge_point_id}' did not answer ${action} within ${timeoutMs} ms`,
          );
      }
    },
  );

  router.get(
    '/cpo/charge-points/:charge_point_id/connectors',
    apiDoc({
      summary: 'Connector statuses the central system recorded',
      path: chargePointPath,
      examples: { one: { path: { charge_point_id: 'CP-DOC-100' } } },
      responses: { 200: { description: 'The connectors', schema: connectorStatuses } },
      errors: { 404: 'Charge point not found' },
    }),
    async (ctx) => {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const items = await cpo.chargePoints.connectors(orgOf(ctx), charge_point_id);
      if (!items) throw notRegistered(charge_point_id);
      ctx.body = { items };
    },
  );

  router.get(
    '/cpo/charge-points/:charge_point_id/sessions',
    apiDoc({
      summary: 'Charging sessions the central system recorded',
      path: chargePointPath,
      examples: { one: { path: { charge_point_id: 'CP-DOC-100' } } },
      responses: { 200: { description: 'The sessions', schema: sessions } },
      errors: { 404: 'Charge point not found' },
    }),
    async (ctx) => {
      const { charge_point_id } = parsePath(ctx, chargePointPath);
      const items = await cpo.chargePoints.sessions(orgOf(ctx), charge_point_id);
      if (!items) throw notRegistered(charge_point_id);
      ctx.body = { items };
    },
  );

  router.get(
    '/cpo/operations/:tracking_id',
    apiDoc({
      summary: 'One operation sent to a charge point (e.g. the Reset of a reboot)',
      path: operationPath,
      examples: { one: { path: { tracking_id: '5b0f6f8e-2a7c-4d3e-9f1a-8c6b4e2d0a13' } } },
      responses: { 200: { description: 'The operation', schema: operation } },
      errors: { 404: 'Operation not found' },
    }),
    async (ctx) => {
      const { tracking_id } = parsePath(ctx, operationPath);
      const operation = await cpo.operations.get(orgOf(ctx), tracking_id);
      if (!operation) throw notFound(`Operation ${tracking_id} not found`);
      ctx.body = operation;
    },
  );

  return router;
}
