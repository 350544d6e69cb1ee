// The virtual charger: one XState machine for OCPP 1.6J and 2.0.1. The state tree is the
// deployment lifecycle; connectors, transactions and configuration are data in context, changed
// by the version-neutral logic (charger-logic.ts, charger-ops.ts) through a Step; the version's
// adapter says it on the wire. Side effects come in through charger-ports.ts.
import { fromCallback, setup } from 'xstate';
import type { ChargerContext, Connector } from './charger-context.ts';
import {
  DEFAULT_TIMINGS,
  LINK_ID,
  SNAPSHOT_VERSION,
  type ChargerEmitted,
  type ChargerEnv,
  type ChargerEvent,
  type ChargerInput,
  type ChargerTimings,
  type CommandEvent,
  type LinkCommand,
  type LinkInput,
  type Stage,
} from './charger-ports.ts';
import { CallRejection, type OcppAdapter, type Payload } from './ocpp-adapter.ts';
import { ocpp16Adapter } from './ocpp16-adapter.ts';
import { ocpp201Adapter } from './ocpp201-adapter.ts';
import { Step } from './charger-step.ts';
import { chargerOps } from './charger-ops.ts';
import { cached } from './charger-auth.ts';
import { SETTINGS, checkSetting, intSetting, keyForVariable, withSetting } from './charger-settings.ts';
import {
  clearFault,
  evStopsEnergy,
  fault,
  newConnector,
  plugIn,
  presentToken,
  sampleMeters,
  sendAllStatus,
  stopTransaction,
  tokenAccepted,
  unplug,
} from './charger-logic.ts';

/** setTimeout's maximum: a timer that does not fire in practice. */
const NEVER = 2 ** 31 - 1;

const DEADLINE: Partial<Record<Stage, keyof ChargerTimings>> = {
  connecting: 'connectingDeadlineMs',
  registering: 'registeringDeadlineMs',
  offline: 'offlineDeadlineMs',
};

const adapterOf = (ctx: ChargerContext): OcppAdapter =>
  ctx.version === 'ocpp2.0.1' ? ocpp201Adapter : ocpp16Adapter;
const timing = (ctx: ChargerContext, key: keyof ChargerTimings) => ctx.timings?.[key] ?? DEFAULT_TIMINGS[key];

export function initialContext(input: ChargerInput): ChargerContext {
  const ctx: ChargerContext = {
    snapshotVersion: SNAPSHOT_VERSION,
    identity: input.identity,
    version: input.version,
    model: input.model,
    attempt: input.attempt ?? 1,
    stage: 'not_deployed',
    stageAt: 0,
    deadlineAt: 0,
    stuck: false,
    recovering: false,
    reconnects: 0,
    reconnectAt: 0,
    bootRetryAt: 0,
    heartbeatAt: 0,
    meterAt: 0,
    nextCallId: 1,
    calls: {},
    outbox: [],
    connectors: Array.from({ length: Math.max(1, input.model.connector_count) }, (_x, i) =>
      newConnector(i + 1),
    ),
    chargerStatus: 'Available',
    settings: {},
    localList: { version: 0, tags: {} },
    authCache: {},
    profiles: [],
    nextTxRef: 1,
    txIds: {},
  };
  if (input.url) ctx.url = input.url;
  if (input.serialNumber) ctx.serialNumber = input.serialNumber;
  if (input.timings) ctx.timings = input.timings;
  for (const [key, value] of Object.entries(input.config ?? {})) {
    const checked = SETTINGS[key] ? checkSetting(key, value) : undefined;
    if (checked?.ok) ctx.settings = withSetting(ctx, key, checked.value);
  }
  return ctx;
}

const withoutCall = (ctx: ChargerContext, id: string) => {
  const calls = { ...ctx.calls };
  delete calls[id];
  return calls;
};

/**
 * Builds the charger machine for an environment (clock reading, randomness); one per process.
 * The engine provides the `link` actor with machine.provide({ actors: { link } }).
 */
export function createChargerMachine(env: ChargerEnv = { now: () => Date.now(), random: Math.random }) {
  const stepOf = (ctx: ChargerContext) => new Step(ctx, env.now(), adapterOf(ctx), env);

  const base = setup({
    types: {
      context: {} as ChargerContext,
      events: {} as ChargerEvent,
      input: {} as ChargerInput,
      emitted: {} as ChargerEmitted,
    },
    actors: {
      // Replaced by the engine; alone, the machine cannot reach a central system.
      link: fromCallback<LinkCommand, LinkInput>(({ sendBack }) => {
        sendBack({
          type: 'link.failed',
          code: 'NO_LINK',
          hint: 'no link actor was provided to the charger machine',
        });
      }),
    },
    guards: {
      // Provisioning steps of 0 ms walk through without a timer.
      provisioningInstant: ({ context }) => timing(context, 'provisioningStepMs') <= 0,
      hasTransaction: ({ context }) => context.connectors.some((c) => c.tx),
      noTransaction: ({ context }) => !context.connectors.some((c) => c.tx),
      canBeStuck: ({ context }) =>
        context.deadlineAt > 0 && !context.stuck && context.deadlineAt <= env.now(),
      heartbeatEnabled: ({ context }) => intSetting(context, 'HeartbeatInterval') > 0,
      resetNow: ({ context }) => context.reset === 'now',
      isBootAnswer: ({ context, event }) =>
        (event.type === 'ocpp.result' || event.type === 'ocpp.error') &&
        context.calls[event.id]?.action === 'BootNotification',
      bootAccepted: ({ context, event }) =>
        event.type === 'ocpp.result' &&
        context.calls[event.id]?.action === 'BootNotification' &&
        adapterOf(context).bootResult(event.payload).status === 'Accepted',
    },
    delays: {
      provisioningStep: ({ context }) => timing(context, 'provisioningStepMs'),
      stageDeadline: ({ context }) =>
        context.deadlineAt > 0 ? Math.max(0, context.deadlineAt - env.now()) : NEVER,
      reconnectDelay: ({ context }) => Math.max(0, context.reconnectAt - env.now()),
      bootRetryDelay: ({ context }) => Math.max(0, context.bootRetryAt - env.now()),
      heartbeatDelay: ({ context }) =>
        intSetting(context, 'HeartbeatInterval') > 0 ? Math.max(0, context.heartbeatAt - env.now()) : NEVER,
      meterDelay: ({ context }) => Math.max(0, context.meterAt - env.now()),
      rebootDelay: ({ context }) => timing(context, 'rebootDelayMs'),
    },
  });

  type Enqueue = Parameters<Parameters<typeof base.enqueueActions>[0]>[0]['enqueue'];

  /** Turns a filled Step into XState actions: context first, then CALLs, emitted and raised events. */
  function commit(s: Step, enqueue: Enqueue): void {
    enqueue.assign(s.ctx);
    for (const e of s.sends) enqueue.sendTo(LINK_ID, e);
    for (const e of s.emits) enqueue.emit(e);
    for (const e of s.raises) enqueue.raise(e);
  }

  /** An action that runs logic on a Step. */
  const run = (fn: (s: Step, event: ChargerEvent) => void) =>
    base.enqueueActions(({ context, event, enqueue }) => {
      const s = stepOf(context);
      fn(s, event);
      commit(s, enqueue);
    });

  /** Announces a stage once: entering it again on RESUME changes nothing but the timers. */
  const enterStage = (stage: Stage) =>
    base.enqueueActions(({ context, enqueue }) => {
      if (context.stage === stage) return;
      const s = stepOf(context);
      const from = context.stage;
      const key = DEADLINE[stage];
      const deadline = key ? timing(context, key) : 0;
      s.patch({ stage, stageAt: s.now, deadlineAt: deadline > 0 ? s.now + deadline : 0, stuck: false });
      if (stage === 'offline') {
        const err = context.lastError;
        const inSeconds = Math.ceil(Math.max(0, context.reconnectAt - s.now) / 1000);
        const hint = `${err?.hint ?? 'disconnected'}; reconnecting in ${inSeconds} s`;
        s.emitStage('offline', from === 'connecting' ? 'in_progress' : 'failed', err?.code, hint);
      } else if (stage === 'online') {
        if (!context.recovering) s.emitStage('online', 'succeeded');
      } else if (stage === 'stopped') s.emitStage('stopped', 'succeeded');
      else s.emitStage(stage, 'in_progress');
      commit(s, enqueue);
    });

  /** Runs a CSMS-call handler of the charger's own version for a local command; the answer is the command's outcome. */
  function localCall(s: Step, e: CommandEvent, action: string, payload: object): void {
    const handler = s.adapter.handlers[action];
    const answer = handler(payload, chargerOps(s)) as {
      status?: string;
      setVariableResult?: { attributeStatus: string }[];
    };
    const status = answer.status ?? answer.setVariableResult?.[0]?.attributeStatus;
    s.result(e.commandId, e.type, {
      ok: status === 'Accepted',
      action,
      payload: answer,
      ...(status === 'Accepted'
        ? {}
        : { error: { code: 'REJECTED', description: `${action} answered ${status}` } }),
    });
  }

  const machine = base
    .extend({
      actions: {
        enterQueued: enterStage('queued'),
        enterScheduling: enterStage('scheduling'),
        enterPulling: enterStage('pulling'),
        enterStarting: enterStage('starting'),
        enterConnecting: enterStage('connecting'),
        enterRegistering: enterStage('registering'),
        enterOnline: enterStage('online'),
        enterOffline: enterStage('offline'),
        enterStopped: enterStage('stopped'),
        markStuck: run((s) => {
          s.patch({ stuck: true });
          const seconds = Math.round((s.now - s.ctx.stageAt) / 1000);
          s.emitStage(s.ctx.stage, 'stuck', 'STAGE_DEADLINE', `still ${s.ctx.stage} after ${seconds} s`);
        }),
        nextAttempt: run((s) => {
          s.patch({
            attempt: s.ctx.attempt + 1,
            stage: 'not_deployed',
            reconnects: 0,
            recovering: false,
            lastError: undefined,
            calls: {},
            outboxInFlight: undefined,
            reset: undefined,
          });
        }),
        connectFailed: run((s, e) => {
          const err =
            e.type === 'link.failed'
              ? { code: e.code, hint: e.hint }
              : {
                  code: 'WS_CLOSED',
                  hint: `the connection closed before it opened${e.type === 'link.closed' && e.code ? ` (code ${e.code})` : ''}`,
                };
          s.emitStage('connecting', 'failed', err.code, err.hint);
          scheduleReconnect(s, err);
        }),
        connectionLost: run((s, e) => {
          const detail =
            e.type === 'link.closed' ? ` (code ${e.code ?? 1006}${e.reason ? `, ${e.reason}` : ''})` : '';
          scheduleReconnect(s, {
            code: 'CONNECTION_LOST',
            hint: `the connection to the central system was lost${detail}`,
          });
        }),
        prepareResume: run((s) => {
          // A restored charger reconnects: the old socket is gone with the old process.
          s.patch({ recovering: true, calls: {}, outboxInFlight: undefined });
        }),
        sendBoot: run((s) => {
          s.send(s.adapter.bootNotification(s.ctx));
        }),
        bootAccepted: run((s, e) => {
          if (e.type !== 'ocpp.result') return;
          s.patch({ calls: withoutCall(s.ctx, e.id), reconnects: 0 });
          applyBootInterval(s, s.adapter.bootResult(e.payload).interval);
        }),
        bootNotAccepted: run((s, e) => {
          if (e.type !== 'ocpp.result' && e.type !== 'ocpp.error') return;
          s.patch({ calls: withoutCall(s.ctx, e.id) });
          const r = e.type === 'ocpp.result' ? s.adapter.bootResult(e.payload) : undefined;
          const retrySec = r && r.interval > 0 ? r.interval : timing(s.ctx, 'bootRetryDefaultSec');
          s.patch({ bootRetryAt: s.now + retrySec * 1000 });
          if (e.type === 'ocpp.error')
            s.emitStage(
              'registering',
              'failed',
              'BOOT_FAILED',
              `BootNotification failed: ${e.code}${e.description ? ` ${e.description}` : ''}; retrying in ${retrySec} s`,
            );
          else if (r!.status === 'Rejected')
            s.emitStage(
              'registering',
              'failed',
              'BOOT_REJECTED',
              `the central system rejected the BootNotification; retrying in ${retrySec} s`,
            );
          else
            s.emitStage(
              'registering',
              'in_progress',
              'BOOT_PENDING',
              `the central system answered Pending; retrying in ${retrySec} s`,
            );
        }),
        startOnline: run((s) => {
          s.patch({ heartbeatAt: s.now + intSetting(s.ctx, 'HeartbeatInterval') * 1000, reconnects: 0 });
          sendAllStatus(s);
          s.pump();
          s.checkRecovered();
        }),
        sendHeartbeat: run((s) => {
          s.send(s.adapter.heartbeat());
          s.patch({ heartbeatAt: s.now + intSetting(s.ctx, 'HeartbeatInterval') * 1000 });
        }),
        forgetReset: run((s) => {
          s.patch({ reset: undefined, calls: {}, outboxInFlight: undefined });
        }),
        sampleMeters: run((s) => sampleMeters(s)),
        clearMeterTimer: run((s) => {
          if (s.ctx.meterAt !== 0) s.patch({ meterAt: 0 });
        }),
        handleResult: run((s, e) => {
          if (e.type === 'ocpp.result') onAnswer(s, e.id, true, e.payload);
        }),
        handleError: run((s, e) => {
          if (e.type === 'ocpp.error')
            onAnswer(s, e.id, false, undefined, { code: e.code, description: e.description });
        }),
        answerCsmsCall: base.enqueueActions(({ context, event, enqueue }) => {
          if (event.type !== 'csms.call') return;
          const s = stepOf(context);
          const handler = s.adapter.handlers[event.action];
          if (!handler) {
            enqueue(() =>
              event.reject('NotImplemented', `${event.action} is not implemented by this charger`),
            );
            return;
          }
          let answer: object;
          try {
            answer = handler(event.payload ?? {}, chargerOps(s));
          } catch (err) {
            const code = err instanceof CallRejection ? err.code : 'InternalError';
            enqueue(() => event.reject(code, err instanceof Error ? err.message : String(err)));
            return;
          }
          // The answer leaves first; the Step's CALLs (sendTo) are delivered after this action.
          enqueue(() => event.respond(answer));
          commit(s, enqueue);
        }),
        dropLink: base.enqueueActions(({ context, event, enqueue }) => {
          enqueue.sendTo(LINK_ID, { type: 'link.drop' } satisfies LinkCommand);
          const s = stepOf(context);
          if (event.type === 'DISCONNECT')
            s.result(event.commandId, 'DISCONNECT', { ok: true, payload: { status: 'Accepted' } });
          commit(s, enqueue);
        }),
        command: run((s, e) => command(s, e as CommandEvent)),
        notRunning: run((s, e) => {
          const c = e as CommandEvent;
          s.fail(c.commandId, c.type, 'NOT_RUNNING', `the charger is ${s.ctx.stage}`);
        }),
      },
    })
    .createMachine({
      id: 'charger',
      context: ({ input }) => initialContext(input),
      initial: 'not_deployed',
      on: {
        PLUG_IN: { actions: 'notRunning' },
        PRESENT_TOKEN: { actions: 'notRunning' },
        UNPLUG: { actions: 'notRunning' },
        EV_STOPS_ENERGY: { actions: 'notRunning' },
        FAULT: { actions: 'notRunning' },
        CLEAR_FAULT: { actions: 'notRunning' },
        DISCONNECT: { actions: 'notRunning' },
        CHANGE_CONFIGURATION: { actions: 'notRunning' },
        SET_VARIABLE: { actions: 'notRunning' },
        CLEAR_CACHE: { actions: 'notRunning' },
        SEND_LOCAL_LIST: { actions: 'notRunning' },
        PROXY_CALL: { actions: 'notRunning' },
      },
      states: {
        not_deployed: {
          on: { DEPLOY: 'deployed' },
        },
        deployed: {
          type: 'parallel',
          on: {
            STOP: 'stopped',
            RESTART: { target: 'deployed', reenter: true, actions: 'nextAttempt' },
            PLUG_IN: { actions: 'command' },
            PRESENT_TOKEN: { actions: 'command' },
            UNPLUG: { actions: 'command' },
            EV_STOPS_ENERGY: { actions: 'command' },
            FAULT: { actions: 'command' },
            CLEAR_FAULT: { actions: 'command' },
            CHANGE_CONFIGURATION: { actions: 'command' },
            SET_VARIABLE: { actions: 'command' },
            CLEAR_CACHE: { actions: 'command' },
            SEND_LOCAL_LIST: { actions: 'command' },
            PROXY_CALL: { actions: 'command' },
          },
          states: {
            lifecycle: {
              initial: 'queued',
              states: {
                queued: {
                  entry: 'enterQueued',
                  always: { guard: 'provisioningInstant', target: 'scheduling' },
                  after: { provisioningStep: 'scheduling' },
                  on: { RESUME: { target: 'queued', reenter: true } },
                },
                scheduling: {
                  entry: 'enterScheduling',
                  always: { guard: 'provisioningInstant', target: 'pulling' },
                  after: { provisioningStep: 'pulling' },
                  on: { RESUME: { target: 'scheduling', reenter: true } },
                },
                pulling: {
                  entry: 'enterPulling',
                  always: { guard: 'provisioningInstant', target: 'starting' },
                  after: { provisioningStep: 'starting' },
                  on: { RESUME: { target: 'pulling', reenter: true } },
                },
                starting: {
                  entry: 'enterStarting',
                  always: { guard: 'provisioningInstant', target: 'session' },
                  after: { provisioningStep: 'session' },
                  on: { RESUME: { target: 'starting', reenter: true } },
                },
                session: {
                  invoke: {
                    id: LINK_ID,
                    src: 'link',
                    input: ({ context }) => ({
                      identity: context.identity,
                      version: context.version,
                      ...(context.url ? { url: context.url } : {}),
                      pingIntervalSec: intSetting(context, 'WebSocketPingInterval'),
                    }),
                  },
                  initial: 'connecting',
                  on: {
                    RESUME: { target: 'session', reenter: true, actions: 'prepareResume' },
                    'link.closed': { target: 'offline', actions: 'connectionLost' },
                    'link.failed': { target: 'offline', actions: 'connectionLost' },
                    'ocpp.result': { actions: 'handleResult' },
                    'ocpp.error': { actions: 'handleError' },
                    'csms.call': { actions: 'answerCsmsCall' },
                    DISCONNECT: { actions: 'dropLink' },
                  },
                  states: {
                    connecting: {
                      entry: 'enterConnecting',
                      on: {
                        'link.open': 'registering',
                        'link.failed': {
                          target: '#charger.deployed.lifecycle.offline',
                          actions: 'connectFailed',
                        },
                        'link.closed': {
                          target: '#charger.deployed.lifecycle.offline',
                          actions: 'connectFailed',
                        },
                      },
                      after: { stageDeadline: { guard: 'canBeStuck', actions: 'markStuck' } },
                    },
                    registering: {
                      entry: 'enterRegistering',
                      initial: 'booting',
                      after: { stageDeadline: { guard: 'canBeStuck', actions: 'markStuck' } },
                      states: {
                        booting: {
                          entry: 'sendBoot',
                          on: {
                            'ocpp.result': [
                              {
                                guard: 'bootAccepted',
                                target: '#charger.deployed.lifecycle.session.online',
                                actions: 'bootAccepted',
                              },
                              { guard: 'isBootAnswer', target: 'waiting', actions: 'bootNotAccepted' },
                              { actions: 'handleResult' },
                            ],
                            'ocpp.error': [
                              { guard: 'isBootAnswer', target: 'waiting', actions: 'bootNotAccepted' },
                              { actions: 'handleError' },
                            ],
                          },
                        },
                        waiting: {
                          after: { bootRetryDelay: 'booting' },
                        },
                      },
                    },
                    online: {
                      type: 'parallel',
                      entry: ['enterOnline', 'startOnline'],
                      states: {
                        heartbeat: {
                          initial: 'waiting',
                          states: {
                            waiting: {
                              after: {
                                heartbeatDelay: {
                                  guard: 'heartbeatEnabled',
                                  target: 'waiting',
                                  reenter: true,
                                  actions: 'sendHeartbeat',
                                },
                              },
                              on: { 'internal.rearmHeartbeat': { target: 'waiting', reenter: true } },
                            },
                          },
                        },
                        reset: {
                          initial: 'none',
                          states: {
                            none: { always: { guard: 'resetNow', target: 'rebooting' } },
                            rebooting: {
                              after: {
                                rebootDelay: {
                                  target: '#charger.deployed.lifecycle.starting',
                                  actions: 'forgetReset',
                                },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
                offline: {
                  entry: 'enterOffline',
                  after: {
                    reconnectDelay: 'session',
                    stageDeadline: { guard: 'canBeStuck', actions: 'markStuck' },
                  },
                  on: {
                    RESUME: { target: 'offline', reenter: true },
                    DISCONNECT: { actions: 'notRunning' },
                  },
                },
              },
            },
            // One meter timer per charger, running while any transaction does (online or not).
            meter: {
              initial: 'idle',
              states: {
                idle: {
                  entry: 'clearMeterTimer',
                  always: { guard: 'hasTransaction', target: 'sampling' },
                },
                sampling: {
                  always: { guard: 'noTransaction', target: 'idle' },
                  after: { meterDelay: { target: 'sampling', reenter: true, actions: 'sampleMeters' } },
                  on: { RESUME: { target: 'sampling', reenter: true } },
                },
              },
            },
          },
        },
        stopped: {
          entry: 'enterStopped',
          on: {
            START: { target: 'deployed', actions: 'nextAttempt' },
            RESTART: { target: 'deployed', actions: 'nextAttempt' },
          },
        },
      },
    });

  function scheduleReconnect(s: Step, err: { code: string; hint: string }): void {
    const n = s.ctx.reconnects;
    const capped = Math.min(
      timing(s.ctx, 'reconnectMaxMs'),
      timing(s.ctx, 'reconnectBaseMs') * 2 ** Math.min(n, 20),
    );
    const delay = Math.round(capped / 2 + (env.random() * capped) / 2);
    s.patch({
      reconnects: n + 1,
      reconnectAt: s.now + delay,
      lastError: err,
      recovering: true,
      calls: {},
      outboxInFlight: undefined,
    });
  }

  function applyBootInterval(s: Step, interval: number): void {
    if (interval > 0) s.patch({ settings: withSetting(s.ctx, 'HeartbeatInterval', String(interval)) });
  }

  /** The CSMS answered one of our CALLs (ok) or it failed (CALLERROR, timeout). */
  function onAnswer(
    s: Step,
    id: string,
    ok: boolean,
    payload: Payload,
    error?: { code: string; description?: string },
  ): void {
    const meta = s.ctx.calls[id];
    if (!meta) return;
    s.patch({ calls: withoutCall(s.ctx, id) });
    if (meta.outbox) {
      const head = s.ctx.outbox[0];
      const started =
        head &&
        (head.action === 'StartTransaction' ||
          (head.action === 'TransactionEvent' && head.payload.eventType === 'Started'));
      const r = ok && started ? s.adapter.txStartResult(payload) : undefined;
      if (r?.transactionId !== undefined && meta.tx !== undefined)
        s.patch({ txIds: { ...s.ctx.txIds, [meta.tx]: r.transactionId } });
      s.settleOutbox(ok);
      if (r?.status && r.status !== 'Accepted') {
        const c = s.ctx.connectors.find((x: Connector) => x.tx?.ref === meta.tx);
        if (c) stopTransaction(s, c.id, 'deauthorized');
      }
      return;
    }
    if (meta.action === 'Authorize') {
      const status = ok ? s.adapter.authorizeResult(payload) : undefined;
      if (status && meta.idTag) s.patch({ authCache: cached(s.ctx, meta.idTag, status) });
      if (status === 'Accepted' && meta.connectorId !== undefined)
        tokenAccepted(
          s,
          meta.connectorId,
          meta.idTag!,
          meta.remote ? 'remote' : 'authorized',
          meta.remote ? s.connector(meta.connectorId)?.authorizedType : undefined,
        );
      if (ok)
        s.result(meta.commandId, 'PRESENT_TOKEN', {
          ok: status === 'Accepted',
          action: 'Authorize',
          payload,
          ...(status === 'Accepted'
            ? {}
            : { error: { code: 'NOT_AUTHORIZED', description: `token ${status}` } }),
        });
      else s.result(meta.commandId, 'PRESENT_TOKEN', { ok: false, action: 'Authorize', error });
      return;
    }
    if (meta.action === 'BootNotification' && ok)
      applyBootInterval(s, s.adapter.bootResult(payload).interval);
    if (meta.commandId !== undefined)
      s.result(
        meta.commandId,
        'PROXY_CALL',
        ok ? { ok, action: meta.action, payload } : { ok, action: meta.action, error },
      );
  }

  /** EV/user actions and operator commands. */
  function command(s: Step, e: CommandEvent): void {
    switch (e.type) {
      case 'PLUG_IN':
        return plugIn(s, e);
      case 'UNPLUG':
        return unplug(s, e);
      case 'PRESENT_TOKEN':
        return presentToken(s, e);
      case 'EV_STOPS_ENERGY':
        return evStopsEnergy(s, e);
      case 'FAULT':
        return fault(s, e);
      case 'CLEAR_FAULT':
        return clearFault(s, e);
      case 'CLEAR_CACHE':
        return localCall(s, e, 'ClearCache', {});
      case 'SEND_LOCAL_LIST':
        return localCall(s, e, 'SendLocalList', e.payload);
      case 'CHANGE_CONFIGURATION':
      case 'SET_VARIABLE': {
        const key =
          e.type === 'CHANGE_CONFIGURATION'
            ? e.key
            : (keyForVariable(e.component, e.variable) ?? (SETTINGS[e.variable] ? e.variable : undefined));
        if (!key || !SETTINGS[key])
          return s.fail(e.commandId, e.type, 'NotSupported', 'unknown configuration key or variable');
        if (s.ctx.version === 'ocpp1.6')
          return localCall(s, e, 'ChangeConfiguration', { key, value: e.value });
        const d = SETTINGS[key];
        return localCall(s, e, 'SetVariables', {
          setVariableData: [
            { component: { name: d.component }, variable: { name: d.variable }, attributeValue: e.value },
          ],
        });
      }
      case 'PROXY_CALL':
        if (!s.online)
          return s.fail(
            e.commandId,
            'PROXY_CALL',
            'OFFLINE',
            'the charger is not connected to its central system',
          );
        s.send(
          { action: e.action, payload: (e.payload ?? {}) as Record<string, unknown>, raw: true },
          { commandId: e.commandId },
        );
        return;
      case 'DISCONNECT':
        return s.fail(e.commandId, 'DISCONNECT', 'OFFLINE', 'the charger is not connected');
    }
  }

  return machine;
}

export type ChargerMachine = ReturnType<typeof createChargerMachine>;
