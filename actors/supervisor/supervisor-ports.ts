// What the supervisor needs from the engine (a factory of charger root actors) and the events it
// takes. The supervisor itself imports no socket or database: the engine provides the factory.
import type { ChargerInput, LifecycleEvent } from '../charger/charger-ports.ts';

/** One running charger as the supervisor sees it: a root actor behind two operations. */
export interface ChargerHandle {
  /** Delivers a lifecycle event to the charger's root actor. */
  send(event: LifecycleEvent): void;
  /** Stops the root actor: the charger leaves this process (no stage change is recorded). */
  stop(): void;
}

/** Where a charger comes from: its persisted snapshot when usable, else a fresh deployment of `input`. */
export interface ChargerSource {
  deploymentId: string;
  orgId: string;
  locationId: string | null;
  input: ChargerInput;
  snapshot?: unknown;
  /** A restored snapshot resumes as the deployment's next attempt (rehydration after a restart). */
  nextAttempt?: true;
}

export interface ChargerFactory {
  /** A started root actor for a fresh deployment (still not_deployed: the supervisor sends DEPLOY). */
  create(source: ChargerSource): ChargerHandle;
  /** A started root actor restored from source.snapshot, or undefined when the snapshot is unusable. */
  restore(source: ChargerSource): ChargerHandle | undefined;
}

export interface SupervisorInput {
  factory: ChargerFactory;
}

export type SupervisorEvent =
  /** A new deployment: a fresh charger walks its stages from queued (replaces a charger of the same id). */
  | { type: 'charger.deploy'; source: ChargerSource }
  /** Rehydration at start: restore the snapshot and re-enter its stage, or deploy afresh. */
  | { type: 'charger.resume'; source: ChargerSource }
  | { type: 'charger.stop'; deploymentId: string }
  /** Start or restart; `source` brings a charger that is not in this process back first. */
  | { type: 'charger.start'; source: ChargerSource }
  | { type: 'charger.restart'; source: ChargerSource }
  /** The deployment is gone: stop its actor and forget it. */
  | { type: 'charger.delete'; deploymentId: string }
  /** The process is shutting down: stop every actor, keep nothing, accept nothing more. */
  | { type: 'supervisor.shutdown' };
