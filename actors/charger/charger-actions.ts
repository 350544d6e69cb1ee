// The charger machine's actions, by the names its state tree uses. Each builds a Step from the
// context, lets a block or the lifecycle fill it, and commits it: context first, then the CALLs
// for the link, the emitted events, the raised ones.
import type { ChargerContext, Stage } from './core/context.ts';
import { LINK_ID, type ChargerEvent, type LinkCommand } from './core/events.ts';
import { Step } from './core/step.ts';
import type { Answer } from './core/wire.ts';
import { nowOf, randomOf } from './core/clock.ts';
import { RpcError } from '../../protocols/ocpp/rpc-error.ts';
import { OCPP_CALLS, wireFor } from './ocpp-wires.ts';
import { chargerSetup } from './charger-setup.ts';
import { fireTimers, nextDeadline, onAnswer, onTransfer, runCommand } from './dispatch.ts';
import { bootAccepted, bootNotAccepted, sendBoot } from './blocks/provisioning.ts';
import * as lifecycle from './lifecycle.ts';
import { securityConnectFailed, securityLinkOpened } from './blocks/security.ts';
import { securityResult } from './blocks/certificates.ts';
import { sendQueuedSecurityEvents } from './blocks/security-events.ts';
import { showReservedForAny } from './blocks/reservation.ts';
import { checkMonitors } from './blocks/monitoring.ts';

type System = { _clock: unknown };
type Enqueue = Parameters<Parameters<typeof chargerSetup.enqueueActions>[0]>[0]['enqueue'];

const stepOf = (ctx: ChargerContext, system: System) => new Step(ctx, nowOf(system), wireFor(ctx.version));

/** The one delayed event that runs a charger's timers (ctx.timers). */
const TIMER_ID = 'timers';

/** Arms the charger's timer on the earliest deadline in ctx.timers, or leaves it unarmed. */
function arm(enqueue: Enqueue, ctx: ChargerContext, now: number): void {
  enqueue.cancel(TIMER_ID);
  const at = nextDeadline(ctx.timers);
  if (at !== undefined) enqueue.raise({ type: 'timers.due' }, { id: TIMER_ID, delay: Math.max(0, at - now) });
}

/** Turns a filled Step into XState actions; a change of ctx.timers re-arms the timer. */
function commit(s: Step, enqueue: Enqueue, before: ChargerContext, rearm = false): void {
  // Whatever the event did to connectors or reservations, any-connector reservations re-count.
  showReservedForAny(s);
  // Monitored values that crossed a threshold or moved by a delta (nothing to do without monitors).
  checkMonitors(s);
  // Every assign clones XState's snapshot: an event that changed nothing assigns nothing. A
  // function, not the object: XState would copy an object's fields one by one first.
  const next = s.ctx;
  if (next !== before) enqueue.assign(() => next);
  for (const e of s.sends) enqueue.sendTo(LINK_ID, e);
  for (const e of s.emits) enqueue.emit(e);
  for (const e of s.raises) enqueue.raise(e);
  for (const c of s.transfers) enqueue.spawnChild('transfers', { id: c.id, input: c });
  if (rearm || s.ctx.timers !== before.timers) arm(enqueue, s.ctx, s.now);
}

/** An action that runs `fn` on a Step. */
const run = (fn: (s: Step, event: ChargerEvent, system: System) => void) =>
  chargerSetup.enqueueActions(({ context, event, enqueue, system }) => {
    const s = stepOf(context, system);
    fn(s, event, system);
    commit(s, enqueue, context);
  });

/** Entering a stage's state announces the stage (once: re-entering it on RESUME says nothing). */
const enter = (stage: Stage) =>
  chargerSetup.enqueueActions(({ context, enqueue, system }) => {
    if (context.stage === stage) return;
    const s = stepOf(context, system);
    lifecycle.enterStage(s, stage);
    commit(s, enqueue, context);
  });

/** Instant provisioning: the three steps' stages in order, one Step and one assign. */
const provisionInstantly = chargerSetup.enqueueActions(({ context, enqueue, system }) => {
  const s = stepOf(context, system);
  for (const stage of ['scheduling', 'pulling', 'starting'] as const) lifecycle.enterStage(s, stage);
  commit(s, enqueue, context);
});

export const chargerActions = {
  enterQueued: enter('queued'),
  provisionInstantly,
  enterScheduling: enter('scheduling'),
  enterPulling: enter('pulling'),
  enterStarting: enter('starting'),
  enterConnecting: enter('connecting'),
  enterRegistering: enter('registering'),
  enterOnline: enter('online'),
  enterOffline: enter('offline'),
  enterStopped: enter('stopped'),
  markStuck: run((s) => lifecycle.markStuck(s)),
  nextAttempt: run((s) => lifecycle.nextAttempt(s)),
  resume: run((s, e) => lifecycle.resume(s, e)),
  prepareSessionResume: run((s) => lifecycle.prepareSessionResume(s)),
  connectFailed: run((s, e, system) => lifecycle.connectFailed(s, e, randomOf(system))),
  connectionLost: run((s, e, system) => lifecycle.connectionLost(s, e, randomOf(system))),
  startOnline: run((s) => lifecycle.startOnline(s)),
  leaveOnline: run((s) => lifecycle.leaveOnline(s)),
  forgetReset: run((s) => lifecycle.forgetReset(s)),
  // Security: a changed profile or password stays once a connection opens with it, else goes back
  securityLinkOpened: run((s, e) => securityLinkOpened(s, e)),
  securityConnectFailed: run((s, e) => securityConnectFailed(s, e)),
  securityOnline: run((s) => sendQueuedSecurityEvents(s)),
  securityResult: run((s, e) => securityResult(s, e)),

  sendBoot: run((s) => sendBoot(s)),
  bootAccepted: run((s, e) => {
    // The BootNotification's answer (the guards said so), validated by the link.
    if (e.type === 'ocpp.result') bootAccepted(s, e.id, e.payload as Answer<'BootNotification'>);
  }),
  bootNotAccepted: run((s, e) => {
    if (e.type === 'ocpp.result')
      bootNotAccepted(s, e.id, { payload: e.payload as Answer<'BootNotification'> });
    else if (e.type === 'ocpp.error') bootNotAccepted(s, e.id, { code: e.code, description: e.description });
  }),

  /** Entering deployed (and RESUME in it): the timers of ctx.timers run again. */
  armTimers: chargerSetup.enqueueActions(({ context, enqueue, system }) =>
    arm(enqueue, context, nowOf(system)),
  ),
  /** Leaving deployed: no timer fires while stopped; START arms them again. */
  disarmTimers: chargerSetup.enqueueActions(({ enqueue }) => enqueue.cancel(TIMER_ID)),

  /** The charger's timers that are due, each to its block. */
  fireTimers: chargerSetup.enqueueActions(({ context, enqueue, system }) => {
    const s = stepOf(context, system);
    fireTimers(s);
    commit(s, enqueue, context, true);
  }),

  handleResult: run((s, e) => {
    if (e.type === 'ocpp.result') onAnswer(s, e.id, true, e.payload);
  }),
  handleError: run((s, e) => {
    if (e.type === 'ocpp.error')
      onAnswer(s, e.id, false, undefined, { code: e.code, description: e.description });
  }),

  /** A CALL from the CSMS, to its version's handler; the answer leaves before the Step's own CALLs. */
  answerCsmsCall: chargerSetup.enqueueActions(({ context, event, enqueue, system }) => {
    if (event.type !== 'csms.call') return;
    const s = stepOf(context, system);
    const calls = OCPP_CALLS[context.version];
    const handler = Object.hasOwn(calls, event.action) ? calls[event.action] : undefined;
    if (!handler) {
      enqueue(() => event.reject('NotImplemented', `${event.action} is not implemented by this charger`));
      return;
    }
    let answer: object;
    try {
      // The link validated the payload against the action's schema: the handler's request type.
      answer = handler((event.payload ?? {}) as never, s);
    } catch (err) {
      const code = err instanceof RpcError ? err.code : 'InternalError';
      const description =
        err instanceof RpcError ? err.description : err instanceof Error ? err.message : String(err);
      enqueue(() => event.reject(code, description));
      return;
    }
    // The answer leaves first; the Step's CALLs (sendTo) are delivered after this action.
    enqueue(() => event.respond(answer));
    commit(s, enqueue, context);
  }),

  /** DISCONNECT while connected: drop the socket as a lost network would. */
  dropLink: chargerSetup.enqueueActions(({ context, event, enqueue, system }) => {
    enqueue.sendTo(LINK_ID, { type: 'link.drop' } satisfies LinkCommand);
    const s = stepOf(context, system);
    if (event.type === 'DISCONNECT')
      s.result(event.commandId, 'DISCONNECT', { ok: true, payload: { status: 'Accepted' } });
    commit(s, enqueue, context);
  }),

  /** A file transfer (firmware download, log upload) ended: its actor goes, its result to the block. */
  transferResult: chargerSetup.enqueueActions(({ context, event, enqueue, system }) => {
    if (event.type !== 'transfer.result') return;
    enqueue.stopChild(event.id);
    const s = stepOf(context, system);
    onTransfer(s, event);
    commit(s, enqueue, context);
  }),

  command: run((s, e) => runCommand(s, e as Parameters<typeof runCommand>[1])),
  notRunning: run((s, e) => {
    const c = e as Parameters<typeof runCommand>[1];
    s.fail(c.commandId, c.type, 'NOT_RUNNING', `the charger is ${s.ctx.stage}`);
  }),
};
