// The deployment lifecycle the simulator adds around OCPP: the stages a charger walks from queued
// to online, each announced once as a stage event; the connection lost and found again with
// backoff; restarts and restores. The state tree (charger-machine.ts) says when; this file what.
import type { ChargerContext, ChargerTimings, Stage } from './core/context.ts';
import type { ChargerEvent, ChargerInput } from './core/events.ts';
import type { Step } from './core/step.ts';
import { SETTINGS, checkSetting, withSetting } from './core/settings.ts';
import { sendAllStatus } from './core/connector-status.ts';
import { wireFor } from './ocpp-wires.ts';
import { scheduleHeartbeat } from './blocks/availability.ts';
import { scheduleAligned } from './blocks/metering.ts';
import { scheduleReboot } from './blocks/provisioning.ts';
import { SNAPSHOT_VERSION } from './charger-snapshot.ts';

export function newConnector(id: number): ChargerContext['connectors'][number] {
  return {
    id,
    status: 'Available',
    errorCode: 'NoError',
    plugged: false,
    inoperative: false,
    evStopped: false,
    evMaxW: 0,
    meterWh: 0,
    meterAt: 0,
    powerW: 0,
  };
}

export function initialContext(input: ChargerInput): ChargerContext {
  wireFor(input.version); // an unknown version fails here, not on the first message
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
    timers: {},
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

const DEADLINE: Partial<Record<Stage, keyof ChargerTimings>> = {
  connecting: 'connectingDeadlineMs',
  registering: 'registeringDeadlineMs',
  offline: 'offlineDeadlineMs',
};

/** Announces a stage once: entering it again on RESUME changes nothing but the timers. */
export function enterStage(s: Step, stage: Stage): void {
  const ctx = s.ctx;
  if (ctx.stage === stage) return;
  const from = ctx.stage;
  const key = DEADLINE[stage];
  const deadline = key ? s.timing(key) : 0;
  s.patch({ stage, stageAt: s.now, deadlineAt: deadline > 0 ? s.now + deadline : 0, stuck: false });
  if (stage === 'offline') {
    const err = ctx.lastError;
    const inSeconds = Math.ceil(Math.max(0, ctx.reconnectAt - s.now) / 1000);
    const hint = `${err?.hint ?? 'disconnected'}; reconnecting in ${inSeconds} s`;
    s.emitStage('offline', from === 'connecting' ? 'in_progress' : 'failed', err?.code, hint);
  } else if (stage === 'online') {
    if (!ctx.recovering) s.emitStage('online', 'succeeded');
  } else if (stage === 'stopped') s.emitStage('stopped', 'succeeded');
  else s.emitStage(stage, 'in_progress');
}

/** The stage's deadline passed: reported once as `stuck`. */
export function markStuck(s: Step): void {
  if (s.ctx.deadlineAt <= 0 || s.ctx.stuck || s.ctx.deadlineAt > s.now) return;
  s.patch({ stuck: true });
  const seconds = Math.round((s.now - s.ctx.stageAt) / 1000);
  s.emitStage(s.ctx.stage, 'stuck', 'STAGE_DEADLINE', `still ${s.ctx.stage} after ${seconds} s`);
}

/** START / RESTART: the next attempt of the deployment walks the stages from the start. */
export function nextAttempt(s: Step): void {
  s.patch({
    attempt: s.ctx.attempt + 1,
    stage: 'not_deployed',
    reconnects: 0,
    recovering: false,
    lastError: undefined,
    calls: {},
    outboxInFlight: undefined,
    reset: undefined,
    bootReason: undefined,
  });
}

/** RESUME after a restore; a process restart makes it the deployment's next attempt (2.0.1: an ApplicationReset). */
export function resume(s: Step, e: ChargerEvent): void {
  if (e.type === 'RESUME' && e.nextAttempt)
    s.patch({ attempt: s.ctx.attempt + 1, bootReason: s.ctx.bootReason ?? 'ApplicationReset' });
}

/** A restored charger reconnects: the old socket is gone with the old process. */
export function prepareSessionResume(s: Step): void {
  s.patch({ recovering: true, calls: {}, outboxInFlight: undefined });
}

/** Reconnect with backoff: min(max, base * 2^failures), jittered to [50%, 100%]. */
export function scheduleReconnect(s: Step, err: { code: string; hint: string }, random: number): void {
  const n = s.ctx.reconnects;
  const capped = Math.min(s.timing('reconnectMaxMs'), s.timing('reconnectBaseMs') * 2 ** Math.min(n, 20));
  const delay = Math.round(capped / 2 + (random * capped) / 2);
  s.patch({
    reconnects: n + 1,
    reconnectAt: s.now + delay,
    lastError: err,
    recovering: true,
    calls: {},
    outboxInFlight: undefined,
  });
}

/** The link failed or closed before it opened. */
export function connectFailed(s: Step, e: ChargerEvent, random: number): void {
  const err =
    e.type === 'link.failed'
      ? { code: e.code, hint: e.hint }
      : {
          code: 'WS_CLOSED',
          hint: `the connection closed before it opened${e.type === 'link.closed' && e.code ? ` (code ${e.code})` : ''}`,
        };
  s.emitStage('connecting', 'failed', err.code, err.hint);
  scheduleReconnect(s, err, random);
}

/** The open link was lost. */
export function connectionLost(s: Step, e: ChargerEvent, random: number): void {
  const detail =
    e.type === 'link.closed' ? ` (code ${e.code ?? 1006}${e.reason ? `, ${e.reason}` : ''})` : '';
  scheduleReconnect(
    s,
    { code: 'CONNECTION_LOST', hint: `the connection to the central system was lost${detail}` },
    random,
  );
}

/** Registered: say every connector's status, deliver what waited, heartbeat, reboot if a reset waits. */
export function startOnline(s: Step): void {
  s.patch({ reconnects: 0 });
  scheduleHeartbeat(s);
  scheduleAligned(s);
  sendAllStatus(s);
  s.pump();
  s.checkRecovered();
  scheduleReboot(s);
}

/** Leaving online: the heartbeat and a pending reboot wait for the next time online. */
export function leaveOnline(s: Step): void {
  s.clearTimer('heartbeat');
  s.clearTimer('reboot');
  s.clearTimer('aligned');
}

/** The reboot of a reset: forget the reset and whatever was in flight; the boot starts over. */
export function forgetReset(s: Step): void {
  s.patch({ reset: undefined, calls: {}, outboxInFlight: undefined });
}
