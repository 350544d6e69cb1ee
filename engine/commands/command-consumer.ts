// The engine side of the command bus. A node takes the commands published on its own topic (to
// the chargers whose lease it holds) and those of chargers no live node holds (the shared topic),
// and acts on the chargers it holds. The database is the truth, the MQTT message only the fast path:
//
// - a charger that can act now: queued -> sent in one conditional UPDATE that records this run as
//   the taker, and only then the event to the charger actor (so a redelivered message or a sweep
//   racing it runs nothing twice, and after a crash the database says what may have run);
// - one command per charger at a time (command-turns.ts): the next is handed over once the outcome
//   of the one before is recorded; until then it waits here, held (received);
// - a charger this run has just started holding (rehydrated, or taken over) waits until it is back
//   (online, or offline after trying): its commands are held (received) and handed over then;
// - a node that starts holding chargers takes their open commands over (takeOver): handed over by
//   an earlier run with no outcome -> interrupted; queued or only received -> run here;
// - a periodic sweep ends what missed its deadline and takes queued commands whose message was lost.
//
// Messages and results are gathered per event-loop turn and written in batches (one UPDATE per
// kind, outcomes first). The statuses and the crash rules: docs/commands.md.
import type { MqttClient } from 'mqtt';
import type { CommandResult, StageEvent } from '../../actors/charger/charger-ports.ts';
import type { ChargerHost } from '../deployments/charger-host.ts';
import { BatchWriter } from '../platform/db/batch-writer.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
import { openCommand } from './command-secrets.ts';
import { outcomeOf } from './command-outcome.ts';
import type { CommandStore, Finished } from './command-store.ts';
import { ChargerTurns } from './command-turns.ts';
import { commandSubscription, nodeCommandSubscription, type CommandMessage } from './command-topics.ts';

export interface CommandConsumerOptions {
  mqtt: MqttClient;
  store: CommandStore;
  host: ChargerHost;
  /** Opens the events sealed because they carry a secret. */
  secrets: SecretBox;
  topicPrefix: string;
  log: Logger;
  /** This run of this node (node id / run), recorded as the taker of the commands it takes. */
  takenBy: string;
  /** This node's id: commands to the chargers it holds come on its own topic. */
  nodeId: string;
  /** How often open commands past their deadline are swept to timed_out. */
  sweepMs: number;
  /** A command still queued this long after it was accepted is taken from the database. */
  unclaimedMs: number;
}

/** Rows the periodic sweep takes from the database per run. */
const UNCLAIMED_BATCH = 1_000;

/** A charger is back (and can take held commands) once it is online, or has tried and is offline. */
function isBack(event: StageEvent | undefined): boolean {
  if (!event) return false;
  if (event.stage === 'online') return event.outcome === 'succeeded' || event.outcome === 'recovered';
  return event.stage === 'offline' || event.stage === 'stopped';
}

export class CommandConsumer {
  /** Messages to take (from MQTT, or from the database by the sweep), keyed by command id. */
  #inbox = new Map<string, CommandMessage>();
  /** Chargers this run started holding that are not back yet, with the commands held for them. */
  readonly #settling = new Map<string, CommandMessage[]>();
  /** Held commands whose charger is back, each handed over (received -> sent) in its charger's turn. */
  readonly #turns = new ChargerTurns();
  #finished: Finished[] = [];
  /** Chargers whose take-over could not be written yet (the database was away). */
  #takeOverAgain = new Set<string>();
  readonly #batch: BatchWriter;
  #sweeping = false;
  #sweepTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #topicHead: string;
  readonly #nodeTopicHead: string;
  readonly #subscriptions: string[];

  constructor(private readonly opts: CommandConsumerOptions) {
    this.#topicHead = `${opts.topicPrefix}/chargers/`;
    this.#nodeTopicHead = `${opts.topicPrefix}/nodes/${opts.nodeId}/chargers/`;
    this.#subscriptions = [
      commandSubscription(opts.topicPrefix),
      nodeCommandSubscription(opts.topicPrefix, opts.nodeId),
    ];
    // One batch per turn of the event loop: what arrived in the turn is written together.
    this.#batch = new BatchWriter({
      name: 'command status',
      log: opts.log,
      delayMs: 0,
      pending: () => this.#inbox.size > 0 || this.#finished.length > 0 || this.#turns.hasTurn(),
      write: () => this.#pump(),
    });
  }

  async start(): Promise<void> {
    const { mqtt, host } = this.opts;
    host.onCommandResult = this.#onResult;
    host.onStage = this.#onStage;
    host.onHold = (ids) => void this.takeOver(ids);
    mqtt.on('message', this.#onMessage);
    this.#sweepTimer = setInterval(this.#sweep, this.opts.sweepMs);
    this.#sweepTimer.unref();
    // QoS 1 both ways; mqtt.js subscribes again by itself after a reconnect. A broker still out
    // of reach at start must not hold the service up: subscribe once it is there.
    const subscribe = () =>
      mqtt
        .subscribeAsync(this.#subscriptions, { qos: 1 })
        .then(() => undefined)
        .catch((err: unknown) => this.opts.log.warn({ err }, 'command subscription failed'));
    if (mqtt.connected) await subscribe();
    else mqtt.once('connect', () => void subscribe());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    const { mqtt } = this.opts;
    mqtt.off('message', this.#onMessage);
    if (mqtt.connected) await mqtt.unsubscribeAsync(this.#subscriptions).catch(() => undefined);
    // Outcomes already reported are still written; what is queued or held stays in the database
    // for the next run (or the node that takes the chargers over).
    this.#inbox.clear();
    this.#turns.clear();
    this.#settling.clear();
    await this.#batch.flush();
  }

  /**
   * This run now holds these chargers (rehydrated at start, or claimed from a node that is gone):
   * commands an earlier run handed to them without an outcome end interrupted, the others run here
   * once the charger is back. Safe to call again for the same chargers.
   */
  async takeOver(deploymentIds: string[]): Promise<void> {
    if (this.#closed || deploymentIds.length === 0) return;
    const { host, store, takenBy, log } = this.opts;
    // Before the first await: a message arriving meanwhile waits with the taken-over commands.
    for (const id of deploymentIds)
      if (!this.#settling.has(id) && !isBack(host.lastStage(id))) this.#settling.set(id, []);
    let taken;
    try {
      taken = await store.takeOver(deploymentIds, takenBy);
    } catch (err) {
      log.warn(
        { err, count: deploymentIds.length },
        'command take-over failed; retrying with the next sweep',
      );
      for (const id of deploymentIds) this.#takeOverAgain.add(id);
      return;
    }
    if (taken.interrupted > 0)
      log.warn({ count: taken.interrupted }, 'commands interrupted by the stop of the node that ran them');
    for (const m of taken.held) this.#waitFor(m);
    if (taken.held.length > 0) {
      log.info({ count: taken.held.length }, 'commands taken over');
      this.#batch.schedule();
    }
  }

  readonly #onMessage = (topic: string, payload: Buffer): void => {
    const ours = topic.startsWith(this.#topicHead) || topic.startsWith(this.#nodeTopicHead);
    if (this.#closed || !ours || !topic.endsWith('/commands')) return;
    let m: CommandMessage;
    try {
      m = JSON.parse(payload.toString()) as CommandMessage;
    } catch {
      this.opts.log.warn({ topic }, 'command message is not JSON: ignored');
      return;
    }
    if (typeof m?.id !== 'string' || typeof m.deployment_id !== 'string' || !m.event) return;
    // Keyed by id: the same message twice in one batch is one command.
    this.#inbox.set(m.id, m);
    this.#batch.schedule();
  };

  readonly #onResult = (r: CommandResult): void => {
    if (this.#closed) return;
    this.#finished.push({ id: r.commandId, at: new Date(), ...outcomeOf(r) });
    this.#batch.schedule();
  };

  readonly #onStage = (deploymentId: string, event: StageEvent): void => {
    // Gone offline or stopped, the charger may never report what it was handed: its next command
    // need not wait for it (and fails at once if the charger cannot act).
    if ((event.stage === 'offline' || event.stage === 'stopped') && this.#turns.releaseCharger(deploymentId))
      this.#batch.schedule();
    const held = this.#settling.get(deploymentId);
    if (!held || !isBack(event)) return;
    this.#settling.delete(deploymentId);
    if (held.length === 0) return;
    for (const m of held) this.#turns.enqueue(m);
    this.#batch.schedule();
  };

  /** A command this run holds: it waits for its charger to be back, then for its turn. */
  #waitFor(m: CommandMessage): void {
    const held = this.#settling.get(m.deployment_id);
    if (!held) this.#turns.enqueue(m);
    else if (!held.some((h) => h.id === m.id)) held.push(m);
  }

  async #pump(): Promise<void> {
    let failure: unknown;
    while (!failure && (this.#inbox.size || this.#finished.length || this.#turns.hasTurn())) {
      // Outcomes first, and in the same statement the next command of each free charger: held
      // commands are older than anything arriving now for the same charger.
      const finished = this.#finished;
      this.#finished = [];
      for (const f of finished) this.#turns.release(f.id);
      const ready = this.#turns.next();
      try {
        await this.#finishAndHandOver(finished, ready);
      } catch (err) {
        // Still received: handed over by a later write, with these outcomes (one statement).
        this.#finished.unshift(...finished);
        this.#turns.putBack(ready);
        failure = err;
      }
      const inbox = this.#inbox;
      this.#inbox = new Map();
      try {
        await this.#take([...inbox.values()]);
      } catch (err) {
        // Still queued: the sweep takes them from the database once it answers again.
        failure ??= err;
      }
    }
    // The batch writer logs it and writes again after a pause.
    if (failure) throw failure;
  }

  async #take(messages: CommandMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const { host, store, takenBy } = this.opts;
    const now: CommandMessage[] = [];
    /** Held first: for a charger not back yet, or busy with another command. */
    const later: CommandMessage[] = [];
    const elsewhere: string[] = [];
    const going = new Set<string>();
    for (const m of messages) {
      const charger = m.deployment_id;
      if (!host.holds(charger)) elsewhere.push(m.id);
      else if (this.#settling.has(charger) || going.has(charger) || !this.#turns.isFree(charger))
        later.push(m);
      else {
        going.add(charger);
        now.push(m);
      }
    }
    // Not held here: another node may hold it; a stopped or deleted charger fails now.
    if (elsewhere.length) await store.failUnrunnable(elsewhere);
    if (now.length) {
      for (const m of now) this.#turns.take(m);
      let sent: Set<string>;
      try {
        sent = await store.handOver(
          now.map((m) => m.id),
          takenBy,
        );
      } catch (err) {
        for (const m of now) this.#turns.release(m.id);
        throw err;
      }
      for (const m of now) {
        if (sent.has(m.id)) this.#deliver(m);
        else this.#turns.release(m.id); // a redelivery, or already final
      }
    }
    if (later.length) {
      const held = await store.hold(
        later.map((m) => m.id),
        takenBy,
      );
      for (const m of later) if (held.has(m.id)) this.#waitFor(m);
    }
  }

  async #finishAndHandOver(finished: Finished[], ready: CommandMessage[]): Promise<void> {
    const sent = await this.opts.store.finishAndHandOver(
      finished,
      ready.map((m) => m.id),
      this.opts.takenBy,
    );
    for (const m of ready) {
      if (sent.has(m.id)) this.#deliver(m);
      else this.#turns.release(m.id); // timed out meanwhile, or taken over by another node
    }
  }

  /** After the database recorded the hand-over: the event to the charger. */
  #deliver(m: CommandMessage): void {
    let event;
    try {
      event = openCommand(this.opts.secrets, m.id, m.event);
    } catch {
      return this.#fail(m.id, {
        code: 'SECRET_UNAVAILABLE',
        description:
          'the command carries a secret this engine node cannot open: every node needs the same SECRETS_KEY',
      });
    }
    if (this.opts.host.deliver(m.deployment_id, event)) return;
    this.#fail(m.id, { code: 'NOT_RUNNING', description: 'the charger left this engine node' });
  }

  #fail(id: string, error: { code: string; description: string }): void {
    this.#finished.push({ id, at: new Date(), status: 'failed', response: null, error });
  }

  readonly #sweep = (): void => {
    if (this.#sweeping || this.#closed) return;
    this.#sweeping = true;
    this.#sweepOnce()
      .catch((err: unknown) => this.opts.log.warn({ err }, 'command sweep failed'))
      .finally(() => (this.#sweeping = false));
  };

  async #sweepOnce(): Promise<void> {
    const { store, host, log, unclaimedMs } = this.opts;
    const timedOut = await store.sweep();
    if (timedOut.length > 0) {
      log.info({ count: timedOut.length }, 'commands timed out');
      // A charger that never reported a command's outcome takes its next one now.
      for (const id of timedOut) this.#turns.release(id);
      this.#batch.schedule();
    }
    // Chargers that left this node hold nothing any more (their commands stay received until the
    // next taker, or time out).
    for (const id of this.#settling.keys()) if (!host.holds(id)) this.#settling.delete(id);
    for (const id of this.#turns.chargers()) if (!host.holds(id)) this.#turns.forget(id);
    if (this.#takeOverAgain.size > 0) {
      const ids = [...this.#takeOverAgain].filter((id) => host.holds(id));
      this.#takeOverAgain.clear();
      await this.takeOver(ids);
    }
    const lost = await store.unclaimed(unclaimedMs, UNCLAIMED_BATCH);
    if (lost.length === 0 || this.#closed) return;
    for (const m of lost) if (!this.#inbox.has(m.id)) this.#inbox.set(m.id, m);
    this.#batch.schedule();
  }
}
