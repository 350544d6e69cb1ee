// The API side of the command bus: one row per charger (status queued, one INSERT), then one QoS 1
// message per charger. The broker must be connected before anything is written; a message the
// broker does not acknowledge in time takes its row with it, so no row is left that nobody will run.
import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import { chargerEvent, type AnyPayload, type EventType } from './command-kinds.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
import { maskCommand, sealCommand } from './command-secrets.ts';
import type { CommandStore, NewCommand } from './command-store.ts';
import type { TargetCharger, TargetFailure } from './command-targets.ts';
import { commandTopic, nodeCommandTopic, type CommandMessage } from './command-topics.ts';

export class BrokerUnavailableError extends Error {}

/**
 * Publishes one QoS 1 message and waits for the broker's acknowledgement, at most `timeoutMs`;
 * rejects with BrokerUnavailableError when the broker is away or slower (the buses that tell every
 * engine node something the caller must know was sent: link conditions, chaos steps).
 */
export async function publishAcknowledged(
  mqtt: MqttClient,
  topic: string,
  message: object,
  timeoutMs: number,
): Promise<void> {
  if (!mqtt.connected) throw new BrokerUnavailableError('the message broker is not connected');
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      mqtt.publishAsync(topic, JSON.stringify(message), { qos: 1 }),
      new Promise((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new BrokerUnavailableError('the message broker did not acknowledge in time')),
          timeoutMs,
        );
      }),
    ]);
  } catch (err) {
    throw err instanceof BrokerUnavailableError ? err : new BrokerUnavailableError(String(err));
  } finally {
    clearTimeout(timer);
  }
}

/** Spec "Queued command result". */
export interface QueuedCommandResult {
  targeted_count: number;
  queued_count: number;
  failed_count: number;
  results: {
    charger_id: string;
    identity: string;
    command: { id: string; event_type: EventType; ocpp_version: OcppVersion; payload: AnyPayload };
  }[];
  failed: TargetFailure[];
}

export type QueueOutcome =
  | { kind: 'queued'; result: QueuedCommandResult }
  /** No targeted charger can take this payload (its OCPP version wants another shape). */
  | { kind: 'mismatch'; problem: string };

export interface CommandProducerOptions {
  mqtt: MqttClient;
  store: CommandStore;
  /** Seals the events that carry a secret. */
  secrets: SecretBox;
  topicPrefix: string;
  /** How long the broker has to acknowledge the messages of one request. */
  publishTimeoutMs?: number;
}

export class CommandProducer {
  constructor(private readonly opts: CommandProducerOptions) {}

  get connected(): boolean {
    return this.opts.mqtt.connected;
  }

  /** Rejects with BrokerUnavailableError when nothing could be queued. */
  async queue(
    orgId: string,
    eventType: EventType,
    payload: AnyPayload,
    chargers: TargetCharger[],
    targetFailures: TargetFailure[],
  ): Promise<QueueOutcome> {
    const failed = [...targetFailures];
    const rows: NewCommand[] = [];
    const messages: CommandMessage[] = [];
    /** The node each charger's message goes to (its lease holder), when one is live. */
    const owners = new Map<string, string>();
    let problem: string | undefined;
    // Stored and answered with its secrets masked; only the (sealed) event carries them.
    const shown = maskCommand(payload);
    for (const c of chargers) {
      const built = chargerEvent(eventType, payload, c.ocpp_version, c.connector_count);
      if ('problem' in built) {
        problem = built.problem;
        failed.push({ error: built.problem, identity: c.identity });
        continue;
      }
      const id = randomUUID();
      const event = sealCommand(this.opts.secrets, { ...built.event, commandId: id });
      rows.push({
        id,
        organization_id: orgId,
        deployment_id: c.id,
        identity: c.identity,
        event_type: eventType,
        ocpp_version: c.ocpp_version,
        payload: shown,
        event,
      });
      messages.push({ id, deployment_id: c.id, event });
      if (c.node_id) owners.set(id, c.node_id);
    }
    if (rows.length === 0 && problem !== undefined) return { kind: 'mismatch', problem };
    if (!this.connected) throw new BrokerUnavailableError('the message broker is not connected');

    await this.opts.store.insert(rows);
    const lost = await this.#publish(messages, owners);
    if (lost.size > 0) {
      await this.opts.store.deleteQueued([...lost]);
      if (lost.size === rows.length)
        throw new BrokerUnavailableError('the message broker did not accept the commands');
    }
    const results: QueuedCommandResult['results'] = [];
    for (const r of rows) {
      if (lost.has(r.id)) {
        failed.push({ error: 'the message broker did not accept the command', identity: r.identity });
        continue;
      }
      results.push({
        charger_id: r.deployment_id,
        identity: r.identity,
        command: {
          id: r.id,
          event_type: eventType,
          ocpp_version: r.ocpp_version as OcppVersion,
          payload: shown,
        },
      });
    }
    return {
      kind: 'queued',
      result: {
        targeted_count: results.length + failed.length,
        queued_count: results.length,
        failed_count: failed.length,
        results,
        failed,
      },
    };
  }

  /** Publishes every message; returns the ids the broker did not acknowledge in time. */
  async #publish(messages: CommandMessage[], owners: Map<string, string>): Promise<Set<string>> {
    const { mqtt, topicPrefix } = this.opts;
    const pending = new Set(messages.map((m) => m.id));
    const lost = new Set<string>();
    await new Promise<void>((resolve) => {
      let open = messages.length;
      if (open === 0) return resolve();
      // One timer for the whole request, not one per message.
      const timer = setTimeout(() => {
        for (const id of pending) lost.add(id);
        pending.clear();
        resolve();
      }, this.opts.publishTimeoutMs ?? 5_000);
      const settle = (id: string, ok: boolean) => {
        if (!pending.delete(id)) return;
        if (!ok) lost.add(id);
        if (--open === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (const m of messages) {
        const owner = owners.get(m.id);
        const topic = owner
          ? nodeCommandTopic(topicPrefix, owner, m.deployment_id)
          : commandTopic(topicPrefix, m.deployment_id);
        mqtt.publish(topic, JSON.stringify(m), { qos: 1 }, (err) => settle(m.id, !err));
      }
    });
    return lost;
  }
}
