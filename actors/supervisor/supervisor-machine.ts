// The supervisor: creates, stops, restarts and deletes the chargers of this process on events.
// Each charger is a root actor kept in a Map the supervisor owns, never a spawned child: spawning
// and stopping thousands of XState children is quadratic (measured-facts.md). For the same reason
// the Map is changed in place rather than copied by assign(): one copy per event over thousands of
// chargers would be quadratic again. The factory (engine) makes the actors.
import { setup } from 'xstate';
import type { LifecycleEvent } from '../charger/charger-ports.ts';
import type {
  ChargerFactory,
  ChargerHandle,
  ChargerSource,
  SupervisorEvent,
  SupervisorInput,
} from './supervisor-ports.ts';

export interface SupervisorContext {
  factory: ChargerFactory;
  /** deployment id -> running charger. */
  chargers: Map<string, ChargerHandle>;
}

/** A restored charger re-enters its stage; one that cannot be restored is deployed afresh. */
function bringBack(ctx: SupervisorContext, source: ChargerSource): { handle: ChargerHandle; fresh: boolean } {
  const restored = source.snapshot === undefined ? undefined : ctx.factory.restore(source);
  if (restored) {
    restored.send(source.nextAttempt ? { type: 'RESUME', nextAttempt: true } : { type: 'RESUME' });
    return { handle: restored, fresh: false };
  }
  const handle = ctx.factory.create(source);
  handle.send({ type: 'DEPLOY' });
  return { handle, fresh: true };
}

function replace(ctx: SupervisorContext, id: string, handle: ChargerHandle): void {
  const previous = ctx.chargers.get(id);
  if (previous && previous !== handle) previous.stop();
  ctx.chargers.set(id, handle);
}

/** Start / restart: a charger in this process gets the event; one that is not is brought back first. */
function lifecycle(ctx: SupervisorContext, source: ChargerSource, event: LifecycleEvent): void {
  const running = ctx.chargers.get(source.deploymentId);
  if (running) return running.send(event);
  const { handle, fresh } = bringBack(ctx, source);
  ctx.chargers.set(source.deploymentId, handle);
  // A fresh deployment already walks from queued; a restored one takes the event.
  if (!fresh) handle.send(event);
}

export function createSupervisorMachine() {
  return setup({
    types: {
      context: {} as SupervisorContext,
      events: {} as SupervisorEvent,
      input: {} as SupervisorInput,
    },
    actions: {
      deploy: ({ context, event }) => {
        if (event.type !== 'charger.deploy') return;
        const handle = context.factory.create(event.source);
        replace(context, event.source.deploymentId, handle);
        handle.send({ type: 'DEPLOY' });
      },
      resume: ({ context, event }) => {
        if (event.type !== 'charger.resume') return;
        const { handle, fresh } = bringBack(context, event.source);
        replace(context, event.source.deploymentId, handle);
        // Resuming means running: a snapshot taken while stopped (the start was asked but not yet
        // persisted) starts; START means nothing to a charger that is already deployed.
        if (!fresh) handle.send({ type: 'START' });
      },
      stopCharger: ({ context, event }) => {
        if (event.type === 'charger.stop') context.chargers.get(event.deploymentId)?.send({ type: 'STOP' });
      },
      startCharger: ({ context, event }) => {
        if (event.type === 'charger.start') lifecycle(context, event.source, { type: 'START' });
      },
      restartCharger: ({ context, event }) => {
        if (event.type === 'charger.restart') lifecycle(context, event.source, { type: 'RESTART' });
      },
      deleteCharger: ({ context, event }) => {
        if (event.type !== 'charger.delete') return;
        context.chargers.get(event.deploymentId)?.stop();
        context.chargers.delete(event.deploymentId);
      },
      stopAll: ({ context }) => {
        for (const handle of context.chargers.values()) handle.stop();
        context.chargers.clear();
      },
    },
  }).createMachine({
    id: 'supervisor',
    context: ({ input }) => ({ factory: input.factory, chargers: new Map() }),
    initial: 'running',
    states: {
      running: {
        on: {
          'charger.deploy': { actions: 'deploy' },
          'charger.resume': { actions: 'resume' },
          'charger.stop': { actions: 'stopCharger' },
          'charger.start': { actions: 'startCharger' },
          'charger.restart': { actions: 'restartCharger' },
          'charger.delete': { actions: 'deleteCharger' },
          'supervisor.shutdown': { target: 'closed', actions: 'stopAll' },
        },
      },
      // Shutting down: nothing is created any more, so nothing outlives the process's close.
      closed: {},
    },
  });
}

export type SupervisorMachine = ReturnType<typeof createSupervisorMachine>;
