// The engine side of the command bus. Every node subscribes to every charger's command topic and
// acts on the chargers it holds: queued -> received (a conditional UPDATE, so a redelivered message
// runs nothing twice), the event to the charger actor, then sent and the final outcome from the
// charger's command.result. Messages and results are gathered per event-loop turn and written in
// batches (one UPDATE per kind), and one periodic sweep ends whatever missed its deadline.
import type { MqttClient } from 'mqtt';
import type { CommandResult } from '../../actors/charger/charger-ports.ts';
import type { ChargerHost } from '../deployments/charger-host.ts';
import { BatchWriter } from '../platform/db/batch-writer.ts';
import type { Logger } from '../platform/log/logger.ts';
import { outcomeOf, type Outcome } from './command-outcome.ts';
import type { CommandStore } from './command-store.ts';
import { commandSubscription, type CommandMessage } from './command-topics.ts';

export interface CommandConsumerOptions {
  mqtt: MqttClient;
  store: CommandStore;
  host: ChargerHost;
  topicPrefix: string;
  log: Logger;
  /** How often open commands past their deadline are swept to timed_out. */
  sweepMs: number;
}

type Finished = Outcome & { id: string; at: Date };

export class CommandConsumer {
  #inbox = new Map<string, CommandMessage>();
  #sent: { id: string; at: Date }[] = [];
  #finished: Finished[] = [];
  readonly #batch: BatchWriter;
  #sweeping = false;
  #sweepTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #topicHead: string;

  constructor(private readonly opts: CommandConsumerOptions) {
    this.#topicHead = `${opts.topicPrefix}/chargers/`;
    // One batch per turn of the event loop: what arrived in the turn is written together.
    this.#batch = new BatchWriter({
      name: 'command status',
      log: opts.log,
      delayMs: 0,
      pending: () => this.#inbox.size > 0 || this.#sent.length > 0 || this.#finished.length > 0,
      write: () => this.#pump(),
    });
  }

  async start(): Promise<void> {
    const { mqtt, host } = this.opts;
    host.onCommandResult = this.#onResult;
    mqtt.on('message', this.#onMessage);
    this.#sweepTimer = setInterval(this.#sweep, this.opts.sweepMs);
    this.#sweepTimer.unref();
    // QoS 1 both ways; mqtt.js subscribes again by itself after a reconnect. A broker still out
    // of reach at start must not hold the service up: subscribe once it is there.
    const subscribe = () =>
      mqtt
        .subscribeAsync(commandSubscription(this.opts.topicPrefix), { qos: 1 })
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
    if (mqtt.connected)
      await mqtt.unsubscribeAsync(commandSubscription(this.opts.topicPrefix)).catch(() => undefined);
    // Outcomes already reported are still written.
    this.#inbox.clear();
    await this.#batch.flush();
  }

  readonly #onMessage = (topic: string, payload: Buffer): void => {
    if (this.#closed || !topic.startsWith(this.#topicHead) || !topic.endsWith('/commands')) return;
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

  async #pump(): Promise<void> {
    while (this.#inbox.size || this.#sent.length || this.#finished.length) {
      try {
        if (this.#inbox.size) {
          const inbox = this.#inbox;
          this.#inbox = new Map();
          await this.#take([...inbox.values()]);
        }
        // sent before final: a command answered at once moves received -> sent -> final.
        const sent = this.#sent;
        this.#sent = [];
        await this.opts.store.markSent(sent);
        const finished = this.#finished;
        this.#finished = [];
        await this.opts.store.finish(finished);
      } catch (err) {
        // What was not written ends timed_out at its deadline.
        this.opts.log.error({ err }, 'command status write failed');
      }
    }
  }

  async #take(messages: CommandMessage[]): Promise<void> {
    const { host, store } = this.opts;
    const mine: CommandMessage[] = [];
    const elsewhere: string[] = [];
    for (const m of messages) {
      if (host.holds(m.deployment_id)) mine.push(m);
      else elsewhere.push(m.id);
    }
    // Not held here: another node may hold it; a stopped or deleted charger fails now.
    if (elsewhere.length) await store.failUnrunnable(elsewhere);
    if (mine.length === 0) return;
    const received = await store.markReceived(mine.map((m) => m.id));
    for (const m of mine) {
      if (!received.has(m.id)) continue; // a redelivery, or already final
      const at = new Date();
      if (host.deliver(m.deployment_id, m.event)) this.#sent.push({ id: m.id, at });
      else
        this.#finished.push({
          id: m.id,
          at,
          status: 'failed',
          response: null,
          error: { code: 'NOT_RUNNING', description: 'the charger left this engine node' },
        });
    }
  }

  readonly #sweep = (): void => {
    if (this.#sweeping || this.#closed) return;
    this.#sweeping = true;
    this.opts.store
      .sweep()
      .then((n) => {
        if (n > 0) this.opts.log.info({ count: n }, 'commands timed out');
      })
      .catch((err: unknown) => this.opts.log.warn({ err }, 'command sweep failed'))
      .finally(() => (this.#sweeping = false));
  };
}
