// One place for a charger's persisted snapshot: what is written (and which version wrote it),
// whether a stored one can come back, and bringing it back, upgraded first by the charger's own
// migrate chain (actors/charger/charger-snapshot.ts). Nothing else in the engine reads or edits a
// snapshot's insides: what changes on a restore (a new attempt) the actor applies itself (RESUME).
import { createActor, type Actor } from 'xstate';
import type { ChargerMachine } from '../../actors/charger/charger-machine.ts';
import {
  REAL_CLOCK,
  SNAPSHOT_VERSION,
  type ChargerContext,
  type ChargerInput,
} from '../../actors/charger/charger-ports.ts';
import { isRestorableSnapshot, migrateSnapshot } from '../../actors/charger/charger-snapshot.ts';

export { isRestorableSnapshot };

/** A snapshot as stored: the JSON and the version that wrote it (evc_deployments.snapshot_version). */
export interface StoredSnapshot {
  snapshot: unknown;
  version: number;
}

/** What to store for a running charger now. */
export function snapshotToStore(actor: Actor<ChargerMachine>): StoredSnapshot {
  return { snapshot: actor.getPersistedSnapshot(), version: SNAPSHOT_VERSION };
}

/** The charger's context in a stored snapshot, upgraded to this version; undefined when none can be read. */
export function storedContext(stored: unknown): ChargerContext | undefined {
  if (!isRestorableSnapshot(stored)) return undefined;
  return (migrateSnapshot(stored) as { context: ChargerContext }).context;
}

/**
 * A root actor from a stored snapshot of this version or an earlier one, not started: start it,
 * then send RESUME. Throws for a snapshot no version of the machine can restore.
 */
export function restoreFromSnapshot(machine: ChargerMachine, stored: unknown): Actor<ChargerMachine> {
  const snapshot = migrateSnapshot(stored) as { context: ChargerInput };
  const ctx = snapshot.context;
  // The input is not read when a snapshot is given; XState's types want one anyway.
  const input: ChargerInput = { identity: ctx.identity, version: ctx.version, model: ctx.model };
  return createActor(machine, { snapshot: snapshot as never, input, clock: REAL_CLOCK });
}
