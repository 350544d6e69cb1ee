// What reaches a charger, and the block that handles it: the EV's and operator's commands, the
// CSMS's answers to the charger's own CALLs, and the charger's timers. (The CSMS's calls are
// dispatched by each version's adapter: ocpp16/ocpp16-calls.ts, ocpp2/ocpp2-calls.ts.)
// Each table is typed by its keys, so a command or timer without a handler does not compile.
import type { CallMeta, ChargerTimers, TimerName } from './core/context.ts';
import type { CommandEvent, CommandOf, CommandType } from './core/events.ts';
import type { Step } from './core/step.ts';
import type { Answer, OutboundCall } from './core/wire.ts';
import { OCPP_CALLS } from './ocpp-wires.ts';
import { authorizeAnswered, presentToken } from './blocks/authorization.ts';
import { clearFault, fault, heartbeatDue } from './blocks/availability.ts';
import { settingOf } from './blocks/configuration.ts';
import { bootAnswered, rebootDue } from './blocks/provisioning.ts';
import { reservationDue } from './blocks/reservation.ts';
import { externalLimit } from './blocks/smart-charging.ts';
import { gridFrequency } from './blocks/bidirectional.ts';
import { gridEvent } from './blocks/der.ts';
import {
  evStopsEnergy,
  plugIn,
  refreshAllCharging,
  sampleMeters,
  txMessageAnswered,
  unplug,
} from './blocks/transactions.ts';
import { alignedDue, endAlignedDue, endSampledDue } from './blocks/metering.ts';
import type { TransferResult } from './core/transfers.ts';
import { firmwareDue, firmwareTransferred } from './blocks/firmware.ts';
import { logTransferred, uploadDue } from './blocks/diagnostics.ts';
import { securityReconnectDue } from './blocks/security.ts';
import { monitoringDue } from './blocks/monitoring.ts';

type CommandHandlers = { [K in CommandType]: (s: Step, e: CommandOf<K>) => void };

export const COMMANDS: CommandHandlers = {
  PLUG_IN: plugIn,
  UNPLUG: unplug,
  EV_STOPS_ENERGY: evStopsEnergy,
  PRESENT_TOKEN: presentToken,
  FAULT: fault,
  CLEAR_FAULT: clearFault,
  EXTERNAL_LIMIT: externalLimitCommand,
  GRID_FREQUENCY: gridFrequency,
  GRID_EVENT: gridEvent,
  CLEAR_CACHE: (s, e) => localCall(s, e, s.wire.clearCacheCall()),
  SEND_LOCAL_LIST: (s, e) => localCall(s, e, s.wire.localListCall(e.list)),
  CHANGE_CONFIGURATION: configure,
  SET_VARIABLE: configure,
  PROXY_CALL: proxyCall,
  // Connected, DISCONNECT drops the link (the state tree handles it); otherwise there is nothing to drop.
  DISCONNECT: (s, e) => s.fail(e.commandId, 'DISCONNECT', 'OFFLINE', 'the charger is not connected'),
};

export function isCommand(type: string): type is CommandType {
  return Object.hasOwn(COMMANDS, type);
}

export function runCommand(s: Step, e: CommandEvent): void {
  (COMMANDS[e.type] as (s: Step, e: CommandEvent) => void)(s, e);
}

/**
 * An operator command OCPP also has (ClearCache, SendLocalList, ChangeConfiguration/SetVariables)
 * runs the version's own handler of that call: its answer is the command's outcome.
 */
function localCall(s: Step, e: CommandEvent, call: OutboundCall): void {
  // The adapter wrote the call (clearCacheCall, localListCall, configurationCall): its own action's request.
  const answer = OCPP_CALLS[s.ctx.version][call.action]!(call.payload as never, s) as {
    status?: string;
    setVariableResult?: { attributeStatus: string }[];
  };
  const status = answer.status ?? answer.setVariableResult?.[0]?.attributeStatus;
  s.result(e.commandId, e.type, {
    ok: status === 'Accepted',
    action: call.action,
    payload: answer,
    ...(status === 'Accepted'
      ? {}
      : { error: { code: 'REJECTED', description: `${call.action} answered ${status}` } }),
  });
}

function configure(s: Step, e: CommandOf<'CHANGE_CONFIGURATION'> | CommandOf<'SET_VARIABLE'>): void {
  const key = settingOf(e);
  if (!key) return s.fail(e.commandId, e.type, 'NotSupported', 'unknown configuration key or variable');
  localCall(s, e, s.wire.configurationCall(key, e.value));
}

/** K11-K13: an external limit set or released through the API. */
function externalLimitCommand(s: Step, e: CommandOf<'EXTERNAL_LIMIT'>): void {
  if (e.connectorId !== 0 && !s.connector(e.connectorId))
    return s.fail(e.commandId, e.type, 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (!externalLimit(s, e.connectorId, e.source, e.limitW, e.gridCritical))
    return s.fail(e.commandId, e.type, 'NOT_FOUND', `no ${e.source} limit on connector ${e.connectorId}`);
  s.result(e.commandId, e.type, { ok: true });
}

/** One raw CALL to the CSMS, as written; its answer is the command's outcome. */
function proxyCall(s: Step, e: CommandOf<'PROXY_CALL'>): void {
  if (!s.online)
    return s.fail(e.commandId, 'PROXY_CALL', 'OFFLINE', 'the charger is not connected to its central system');
  s.send(
    { action: e.action, payload: (e.payload ?? {}) as Record<string, unknown>, raw: true },
    { commandId: e.commandId },
  );
}

// ---------------------------------------------------------------------------------------------

/**
 * Handles the CSMS's answer to one of the charger's `A` CALLs (its payload when ok, else the error);
 * true when it reported the command's result.
 */
type AnswerHandler<A extends string> = (
  s: Step,
  meta: CallMeta,
  ok: boolean,
  payload: Answer<A> | undefined,
  error?: { code: string; description?: string },
) => boolean;

/** Answers that mean something to a block, by action (the outbox's go to the transactions block). */
export const ANSWERS: { readonly [A in 'Authorize' | 'BootNotification']: AnswerHandler<A> } = {
  Authorize: authorizeAnswered,
  BootNotification: bootAnswered,
};

/** The CSMS answered one of our CALLs (ok) or it failed (CALLERROR, timeout). */
export function onAnswer(
  s: Step,
  id: string,
  ok: boolean,
  payload: unknown,
  error?: { code: string; description?: string },
): void {
  const meta = s.ctx.calls[id];
  if (!meta) return;
  s.dropCall(id);
  if (meta.outbox) return txMessageAnswered(s, meta, ok, payload);
  // The link validated the answer against the schema of meta.action's response: the handler's type.
  const answered = (ANSWERS as Readonly<Record<string, AnswerHandler<never> | undefined>>)[meta.action];
  if (answered?.(s, meta, ok, payload as never, error)) return;
  // A CALLRESULT's payload is an object (protocols/ocpp/rpc-frame.ts parses no other).
  if (meta.commandId !== undefined)
    s.result(
      meta.commandId,
      'PROXY_CALL',
      ok ? { ok, action: meta.action, payload: payload as object } : { ok, action: meta.action, error },
    );
}

// ---------------------------------------------------------------------------------------------

/** Each timer's block (core/context.ts TimerName): called when its deadline is due. */
export const TIMERS: Record<TimerName, (s: Step) => void> = {
  heartbeat: heartbeatDue,
  meter: sampleMeters,
  reboot: rebootDue,
  reservation: reservationDue,
  // Meter values (metering)
  aligned: alignedDue,
  powerChange: refreshAllCharging,
  endSampled: endSampledDue,
  endAligned: endAlignedDue,
  // firmware and diagnostics
  firmware: firmwareDue,
  diagnostics: uploadDue,
  // Security: reconnect with changed credentials or profile
  securityReconnect: securityReconnectDue,
  // Monitoring: periodic monitors
  monitoring: monitoringDue,
};

/** A file transfer ended (core/transfers.ts): to the block waiting for it; others are stale. */
export function onTransfer(s: Step, r: TransferResult): void {
  if (!firmwareTransferred(s, r)) logTransferred(s, r);
}

/** Fires every due timer (each is cleared first; its block may set it again). */
export function fireTimers(s: Step): void {
  for (const name of Object.keys(s.ctx.timers) as TimerName[]) {
    const at = s.ctx.timers[name];
    if (at === undefined || at > s.now) continue;
    s.clearTimer(name);
    TIMERS[name](s);
  }
}

/** The earliest timer deadline, if any. */
export function nextDeadline(timers: ChargerTimers): number | undefined {
  let next: number | undefined;
  for (const name in timers) {
    const at = timers[name as TimerName]!;
    if (next === undefined || at < next) next = at;
  }
  return next;
}
