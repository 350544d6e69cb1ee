// What the charger machine is made of, by name: its types, the `link` actor the engine provides,
// its guards and delays. Its actions are in charger-actions.ts, its state tree in charger-machine.ts.
import { fromCallback, setup, type EventObject } from 'xstate';
import type { ChargerContext, ChargerTimings } from './core/context.ts';
import type { ChargerEmitted, ChargerEvent, ChargerInput, LinkCommand, LinkInput } from './core/events.ts';
import type { TransferCommand, TransferResult } from './core/transfers.ts';
import type { Answer } from './core/wire.ts';
import { DEFAULT_TIMINGS } from './core/context.ts';
import { nowOf } from './core/clock.ts';
import { wireFor } from './ocpp-wires.ts';
import { isCommand } from './dispatch.ts';

/** setTimeout's maximum: a timer that does not fire in practice. */
const NEVER = 2 ** 31 - 1;

const timing = (ctx: ChargerContext, key: keyof ChargerTimings) => ctx.timings?.[key] ?? DEFAULT_TIMINGS[key];
const until = (at: number, system: { _clock: unknown }) => Math.max(0, at - nowOf(system));

export const chargerSetup = setup({
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
    // One per transfer, spawned with its command (core/transfers.ts). Replaced by the engine
    // (engine/charger/transfers.ts); alone, every transfer fails.
    transfers: fromCallback<EventObject, TransferCommand>(({ input, sendBack }) => {
      sendBack({
        type: 'transfer.result',
        id: input.id,
        ok: false,
        error: 'failed',
        detail: 'no transfers actor was provided to the charger machine',
      } satisfies TransferResult);
    }),
  },
  guards: {
    isCommand: ({ event }) => isCommand(event.type),
    // Provisioning steps of 0 ms walk through without a timer.
    provisioningInstant: ({ context }) => timing(context, 'provisioningStepMs') <= 0,
    isBootAnswer: ({ context, event }) =>
      (event.type === 'ocpp.result' || event.type === 'ocpp.error') &&
      context.calls[event.id]?.action === 'BootNotification',
    bootAccepted: ({ context, event }) =>
      event.type === 'ocpp.result' &&
      context.calls[event.id]?.action === 'BootNotification' &&
      wireFor(context.version).bootResult(event.payload as Answer<'BootNotification'>).status === 'Accepted',
  },
  delays: {
    provisioningStep: ({ context }) => timing(context, 'provisioningStepMs'),
    stageDeadline: ({ context, system }) =>
      context.deadlineAt > 0 ? until(context.deadlineAt, system) : NEVER,
    reconnectDelay: ({ context, system }) => until(context.reconnectAt, system),
    bootRetryDelay: ({ context, system }) => until(context.bootRetryAt, system),
  },
});
