// A chaos run's steps from the API to the nodes holding its chargers, and what the chargers saw
// back (docs/faults.md, "Fleet chaos runs"). One QoS 1 message per step and batch of chargers on a
// topic every engine node takes (each does the step to the chargers it holds, as link conditions
// do); each node sends what its watched chargers saw every quarter second on a second topic, which
// the node running the run reads. Times are the nodes' wall clocks (a cluster keeps them in sync).
import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { ChargerHost } from '../deployments/charger-host.ts';
import type { Logger } from '../platform/log/logger.ts';
import { publishAcknowledged } from '../commands/command-producer.ts';
import { doChaos, type ChaosStep } from './chaos-actions.ts';
import type { Observation } from './chaos-report.ts';

export const chaosTopic = (prefix: string) => `${prefix}/chaos`;
export const chaosSeenTopic = (prefix: string) => `${prefix}/chaos-seen`;

interface StepMessage {
  /** Per message: one the broker delivers twice is done once. */
  id: string;
  run_id: string;
  step: ChaosStep;
  deployment_ids: string[];
}

interface SeenMessage {
  run_id: string;
  items: Array<[deploymentId: string, seen: Observation]>;
}

export interface ChaosBusOptions {
  mqtt: MqttClient;
  /** On engine nodes: the chargers steps are done to. */
  host?: ChargerHost;
  topicPrefix: string;
  log: Logger;
  publishTimeoutMs?: number;
  flushMs?: number;
}

/** Chargers per step message (10,000 ids are ~370 kB). */
const BATCH = 2_000;
const RECENT = 256;

export class ChaosBus {
  /** Where what the chargers saw goes (the service of the node running the run). */
  onSeen: (runId: string, deploymentId: string, seen: Observation) => void = () => {};
  readonly #steps: string;
  readonly #seen: string;
  readonly #recent = new Set<string>();
  /** What this node's watched chargers saw, by run, until the next flush. */
  readonly #pending = new Map<string, SeenMessage['items']>();
  #flush: ReturnType<typeof setInterval> | undefined;
  #started = false;

  constructor(private readonly opts: ChaosBusOptions) {
    this.#steps = chaosTopic(opts.topicPrefix);
    this.#seen = chaosSeenTopic(opts.topicPrefix);
  }

  /** Every node reads what chargers saw; engine nodes (`host` given) also take the steps. */
  async start(): Promise<void> {
    const { mqtt, log, host } = this.opts;
    this.#started = true;
    mqtt.on('message', this.#onMessage);
    const topics = host ? [this.#seen, this.#steps] : [this.#seen];
    const subscribe = () =>
      mqtt
        .subscribeAsync(topics, { qos: 1 })
        .then(() => undefined)
        .catch((err: unknown) => log.warn({ err }, 'chaos subscription failed'));
    if (mqtt.connected) await subscribe();
    else mqtt.once('connect', () => void subscribe());
    if (host) {
      this.#flush = setInterval(() => this.#flushSeen(), this.opts.flushMs ?? 250);
      this.#flush.unref();
    }
  }

  async close(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    clearInterval(this.#flush);
    this.#flushSeen();
    const { mqtt } = this.opts;
    mqtt.off('message', this.#onMessage);
    if (mqtt.connected) await mqtt.unsubscribeAsync([this.#seen, this.#steps]).catch(() => undefined);
  }

  /** Does a step to these chargers wherever they run; rejects with BrokerUnavailableError when it cannot go. */
  async send(runId: string, step: ChaosStep, deploymentIds: string[]): Promise<void> {
    for (let i = 0; i < deploymentIds.length; i += BATCH)
      await this.#publish(this.#steps, {
        id: randomUUID(),
        run_id: runId,
        step,
        deployment_ids: deploymentIds.slice(i, i + BATCH),
      } satisfies StepMessage);
  }

  #publish(topic: string, message: object): Promise<void> {
    return publishAcknowledged(this.opts.mqtt, topic, message, this.opts.publishTimeoutMs ?? 5_000);
  }

  #flushSeen(): void {
    for (const [runId, items] of this.#pending)
      this.#publish(this.#seen, { run_id: runId, items } satisfies SeenMessage).catch((err: unknown) =>
        this.opts.log.warn(
          { err, runId, items: items.length },
          'what chargers saw in a chaos run was not sent',
        ),
      );
    this.#pending.clear();
  }

  #sink(runId: string, deploymentId: string): (o: Observation) => void {
    return (o) => {
      let items = this.#pending.get(runId);
      if (!items) this.#pending.set(runId, (items = []));
      items.push([deploymentId, o]);
    };
  }

  readonly #onMessage = (topic: string, payload: Buffer): void => {
    if (topic !== this.#steps && topic !== this.#seen) return;
    let m: StepMessage | SeenMessage;
    try {
      m = JSON.parse(payload.toString()) as StepMessage | SeenMessage;
    } catch {
      this.opts.log.warn({ topic }, 'chaos message is not JSON: ignored');
      return;
    }
    if (topic === this.#seen) {
      const seen = m as SeenMessage;
      if (!Array.isArray(seen.items)) return;
      for (const [id, o] of seen.items) this.onSeen(seen.run_id, id, o);
      return;
    }
    const step = m as StepMessage;
    const { host } = this.opts;
    if (!host || typeof step.id !== 'string' || !Array.isArray(step.deployment_ids)) return;
    if (this.#recent.has(step.id)) return;
    this.#recent.add(step.id);
    if (this.#recent.size > RECENT) this.#recent.delete(this.#recent.values().next().value!);
    for (const id of step.deployment_ids)
      host.chaos(id, (runtime, actor) => doChaos(runtime, actor, step.step, this.#sink(step.run_id, id)));
  };
}
