// Hosts the supervisor: provides it the factory of charger root actors (the real charger runtime,
// the inspector for chosen identities, the write-behind for stage events and snapshots), rehydrates
// the chargers whose desired state is running at start, and on close stops every actor WITHOUT
// marking it stopped, so the next start resumes it.
import { createActor, type Actor } from 'xstate';
import type { CommandEvent, CommandResult, StageEvent } from '../../actors/charger/charger-ports.ts';
import {
  createSupervisorMachine,
  type SupervisorMachine,
} from '../../actors/supervisor/supervisor-machine.ts';
import type {
  ChargerFactory,
  ChargerHandle,
  ChargerSource,
  SupervisorEvent,
} from '../../actors/supervisor/supervisor-ports.ts';
import type { ChargerActor, ChargerRuntime } from '../charger/charger-runtime.ts';
import type { LinkConditions, Misbehaviour } from '../charger/link-conditions.ts';
import { snapshotToStore, type StoredSnapshot } from '../charger/charger-snapshots.ts';
import type { ChargerInspector } from '../charger/charger-inspector.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { DeploymentRow, DeploymentStore } from './deployment-store.ts';
import type { DeploymentWriteBehind, PersistedCharger } from './deployment-write-behind.ts';

/** A charger root actor with what the write-behind needs to persist it. */
class HostedCharger implements ChargerHandle, PersistedCharger {
  readonly deploymentId: string;
  readonly orgId: string;
  readonly locationId: string | null;
  last?: StageEvent;
  stageEventsSincePrune = 0;
  #final: StoredSnapshot | undefined;
  #unsubscribe: Array<() => void> = [];

  constructor(
    source: ChargerSource,
    readonly actor: ChargerActor,
    private readonly writer: DeploymentWriteBehind,
    onResult: (result: CommandResult) => void,
    onStage: (deploymentId: string, event: StageEvent) => void,
  ) {
    this.deploymentId = source.deploymentId;
    this.orgId = source.orgId;
    this.locationId = source.locationId;
    const stage = actor.on('stage', ({ type: _t, ...event }) => {
      writer.stage(this, event);
      onStage(this.deploymentId, event);
    });
    const results = actor.on('command.result', onResult);
    const changes = actor.subscribe({ next: () => writer.changed(this), error: () => undefined });
    this.#unsubscribe.push(
      () => stage.unsubscribe(),
      () => results.unsubscribe(),
      () => changes.unsubscribe(),
    );
  }

  get active(): boolean {
    return this.actor.getSnapshot().status === 'active';
  }

  persistedSnapshot(): StoredSnapshot | undefined {
    return this.active ? snapshotToStore(this.actor) : this.#final;
  }

  /** Adds this charger's connectors to the counts by status (nothing when it is not running). */
  countConnectors(into: Record<string, number>): void {
    if (!this.active) return;
    for (const c of this.actor.getSnapshot().context.connectors) into[c.status] = (into[c.status] ?? 0) + 1;
  }

  send(event: Parameters<ChargerHandle['send']>[0]): void {
    this.actor.send(event);
  }

  command(event: CommandEvent): void {
    this.actor.send(event);
  }

  /** Leaves this process: the last snapshot is written as it was, with no stage change. */
  stop(): void {
    if (this.active) this.#final = snapshotToStore(this.actor);
    for (const off of this.#unsubscribe) off();
    this.actor.stop();
    if (this.#final !== undefined) this.writer.changed(this);
  }
}

export interface ChargerHostOptions {
  runtime: ChargerRuntime;
  store: DeploymentStore;
  writer: DeploymentWriteBehind;
  log: Logger;
  inspector?: ChargerInspector;
}

export class ChargerHost {
  readonly #supervisor: Actor<SupervisorMachine>;
  #closed = false;
  /** Where every charger's command.result goes (the command consumer). */
  onCommandResult: (result: CommandResult) => void = () => undefined;
  /** Every stage event of a charger held here (the command consumer waits for restored chargers). */
  onStage: (deploymentId: string, event: StageEvent) => void = () => undefined;
  /**
   * This process started holding these chargers after a start (rehydration, page by page): the
   * command consumer takes their open commands over. Whatever claims chargers from another node
   * calls it too.
   */
  onHold: (deploymentIds: string[]) => void = () => undefined;

  constructor(private readonly opts: ChargerHostOptions) {
    const factory: ChargerFactory = {
      create: (source) => this.#start(source, opts.runtime.create(source.input, source.deploymentId)),
      restore: (source) => {
        let actor: ChargerActor;
        try {
          actor = opts.runtime.restore(source.snapshot, source.deploymentId);
        } catch (err) {
          opts.log.info(
            { identity: source.input.identity, err },
            'charger snapshot not restorable: redeploying',
          );
          return undefined;
        }
        const charger = this.#start(source, actor);
        if (charger.active) return charger;
        charger.stop();
        opts.log.warn({ identity: source.input.identity }, 'restored charger did not start: redeploying');
        return undefined;
      },
    };
    this.#supervisor = createActor(createSupervisorMachine(), { input: { factory } });
    this.#supervisor.subscribe({ error: (err) => opts.log.error({ err }, 'supervisor failed') });
    this.#supervisor.start();
  }

  /**
   * Starts these chargers (leased to this node: its own after a restart, or claimed from a node
   * that is gone) from their snapshots where possible, as their next attempt; the command consumer
   * then takes their open commands over.
   */
  resume(rows: DeploymentRow[]): void {
    if (this.#closed || rows.length === 0) return;
    for (const row of rows) this.#send({ type: 'charger.resume', source: resumeSource(row) });
    this.onHold(rows.map((row) => row.id));
  }

  deploy(row: DeploymentRow): void {
    this.#send({ type: 'charger.deploy', source: sourceOf(row, row.attempt, false) });
  }

  stop(deploymentId: string): void {
    this.#send({ type: 'charger.stop', deploymentId });
  }

  /** Start (from stopped) or restart: attempt + 1, also for a charger this process does not hold yet. */
  start(row: DeploymentRow, restart: boolean): void {
    const source = sourceOf(row, row.attempt + 1, true);
    this.#send(restart ? { type: 'charger.restart', source } : { type: 'charger.start', source });
  }

  /** Stops the charger and drops whatever of it still waits to be written. */
  remove(deploymentId: string): Promise<void> {
    return this.removeAll([deploymentId]);
  }

  /** Resolves once no write of these chargers is in flight (their rows can then be deleted). */
  async removeAll(deploymentIds: string[]): Promise<void> {
    for (const deploymentId of deploymentIds) {
      this.#send({ type: 'charger.delete', deploymentId });
      this.opts.writer.forget(deploymentId);
    }
    await this.opts.writer.idle();
  }

  /** Chargers of a location still in this process (a location delete racing its deployment). */
  idsOfLocation(locationId: string): string[] {
    const ids: string[] = [];
    for (const [id, h] of this.#chargers()) if ((h as HostedCharger).locationId === locationId) ids.push(id);
    return ids;
  }

  holds(deploymentId: string): boolean {
    return this.#chargers().has(deploymentId);
  }

  /** Hands a command to a charger this process holds; false when it holds none with that id. */
  deliver(deploymentId: string, event: CommandEvent): boolean {
    const charger = this.#closed ? undefined : this.#chargers().get(deploymentId);
    if (!charger) return false;
    (charger as HostedCharger).command(event);
    return true;
  }

  /** Sets or clears a charger's link conditions (docs/faults.md); false when it is not held here. */
  setLinkConditions(deploymentId: string, conditions: LinkConditions | null): boolean {
    const charger = this.#closed
      ? undefined
      : (this.#chargers().get(deploymentId) as HostedCharger | undefined);
    if (!charger?.active) return false;
    this.opts.runtime.setLinkConditions(charger.actor, conditions);
    return true;
  }

  /** The charger misbehaves once on purpose (docs/faults.md); false when it is not held here or cannot. */
  misbehave(deploymentId: string, m: Misbehaviour): boolean {
    const charger = this.#closed
      ? undefined
      : (this.#chargers().get(deploymentId) as HostedCharger | undefined);
    return !!charger?.active && this.opts.runtime.misbehave(charger.actor, m);
  }

  /**
   * A chaos run acts on a charger held here (engine/chaos: its outage, its watch, a reboot); false
   * when it is not held here or not running.
   */
  chaos(deploymentId: string, act: (runtime: ChargerRuntime, actor: ChargerActor) => void): boolean {
    const charger = this.#closed
      ? undefined
      : (this.#chargers().get(deploymentId) as HostedCharger | undefined);
    if (!charger?.active) return false;
    act(this.opts.runtime, charger.actor);
    return true;
  }

  /** The newest stage event of a charger held here since it was (re)started here. */
  lastStage(deploymentId: string): StageEvent | undefined {
    return (this.#chargers().get(deploymentId) as HostedCharger | undefined)?.last;
  }

  /** The organization and location of a charger this process holds (the meter of its calls). */
  placeOf(deploymentId: string): { orgId: string; locationId: string | null } | undefined {
    return this.#chargers().get(deploymentId) as HostedCharger | undefined;
  }

  /** The connectors of the chargers running here, by status. */
  connectorCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    if (!this.#closed)
      for (const h of this.#chargers().values()) (h as HostedCharger).countConnectors(counts);
    return counts;
  }

  /** The chargers this process holds. */
  ids(): string[] {
    return [...this.#chargers().keys()];
  }

  get size(): number {
    return this.#chargers().size;
  }

  /** Stops every actor (not marking them stopped) and writes their last snapshots. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#supervisor.send({ type: 'supervisor.shutdown' });
    this.#supervisor.stop();
    await this.opts.writer.close();
  }

  #chargers(): Map<string, ChargerHandle> {
    return this.#supervisor.getSnapshot().context.chargers;
  }

  #send(event: SupervisorEvent): void {
    if (!this.#closed) this.#supervisor.send(event);
  }

  #start(source: ChargerSource, actor: ChargerActor): HostedCharger {
    const charger = new HostedCharger(
      source,
      actor,
      this.opts.writer,
      (r) => this.onCommandResult(r),
      (id, event) => this.onStage(id, event),
    );
    // Before start: the inspector then sees the actor's creation and every event after it.
    this.opts.inspector?.attach(source.input.identity, actor);
    actor.start();
    return charger;
  }
}

/**
 * The charger of a row. `attempt` is the attempt of a fresh deployment; with `withSnapshot`, the
 * stored snapshot comes along (the runtime restores it, or the charger is deployed afresh).
 */
function sourceOf(row: DeploymentRow, attempt: number, withSnapshot: boolean): ChargerSource {
  const source: ChargerSource = {
    deploymentId: row.id,
    orgId: row.organization_id,
    locationId: row.location_id,
    input: {
      identity: row.identity,
      version: row.ocpp_version,
      model: row.charger_model,
      attempt,
      ...(row.ws_url ? { url: row.ws_url } : {}),
    },
  };
  if (withSnapshot && row.snapshot) source.snapshot = row.snapshot;
  return source;
}

/**
 * Rehydration after a restart is a new attempt, and the stage events say so: the restored charger
 * resumes as attempt + 1 (RESUME with nextAttempt; it re-enters its stage and reports `recovered`
 * once online again).
 */
function resumeSource(row: DeploymentRow): ChargerSource {
  return { ...sourceOf(row, row.attempt + 1, true), nextAttempt: true };
}
