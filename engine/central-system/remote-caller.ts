// The asking side of a CSMS-to-charger call across processes: publishes a CallRequest and waits
// for the reply of the node that holds the charger's connection. One reply subscription per
// process; pending calls wait in a Map keyed by tracking id, each with its own deadline.
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { callTopic, replySubscription, replyTopic, type CallReply, type CallRequest } from './topics.ts';

export type RemoteOutcome = CallReply | { tracking_id: string; outcome: 'no_answer' };

export class BrokerUnavailableError extends Error {}

export class RemoteCaller {
  readonly #requesterId = randomBytes(6).toString('hex');
  readonly #pending = new Map<string, (reply: RemoteOutcome) => void>();
  readonly #replyPrefix: string;

  constructor(
    private readonly mqtt: MqttClient,
    private readonly topicPrefix: string,
    /** How long the charger has to answer; the wait adds a margin for the broker round trips. */
    private readonly callTimeoutMs: number,
  ) {
    this.#replyPrefix = replyTopic(topicPrefix, this.#requesterId, '');
  }

  async start(): Promise<void> {
    this.mqtt.on('message', this.#onMessage);
    await this.mqtt.subscribeAsync(replySubscription(this.topicPrefix, this.#requesterId), { qos: 1 });
  }

  async stop(): Promise<void> {
    this.mqtt.off('message', this.#onMessage);
    for (const [trackingId, settle] of this.#pending)
      settle({ tracking_id: trackingId, outcome: 'no_answer' });
    if (this.mqtt.connected)
      await this.mqtt
        .unsubscribeAsync(replySubscription(this.topicPrefix, this.#requesterId))
        .catch(() => undefined);
  }

  /** Rejects with BrokerUnavailableError when the broker is not connected; otherwise always settles. */
  async call(
    trackingId: string,
    chargePointId: string,
    action: string,
    payload: unknown,
  ): Promise<RemoteOutcome> {
    if (!this.mqtt.connected) throw new BrokerUnavailableError('message broker not connected');
    const request: CallRequest = {
      tracking_id: trackingId,
      charge_point_id: chargePointId,
      action,
      payload,
      reply_to: replyTopic(this.topicPrefix, this.#requesterId, trackingId),
      timeout_ms: this.callTimeoutMs,
    };
    const answered = new Promise<RemoteOutcome>((resolve) => {
      const timer = setTimeout(
        () => settle({ tracking_id: trackingId, outcome: 'no_answer' }),
        this.callTimeoutMs + 2_000,
      );
      const settle = (reply: RemoteOutcome) => {
        clearTimeout(timer);
        this.#pending.delete(trackingId);
        resolve(reply);
      };
      this.#pending.set(trackingId, settle);
    });
    try {
      await this.mqtt.publishAsync(callTopic(this.topicPrefix, chargePointId), JSON.stringify(request), {
        qos: 1,
      });
    } catch (err) {
      this.#pending.get(trackingId)?.({ tracking_id: trackingId, outcome: 'no_answer' });
      throw new BrokerUnavailableError((err as Error).message);
    }
    return answered;
  }

  readonly #onMessage = (topic: string, message: Buffer): void => {
    if (!topic.startsWith(this.#replyPrefix)) return;
    const settle = this.#pending.get(topic.slice(this.#replyPrefix.length));
    if (!settle) return; // an answer after our deadline
    try {
      settle(JSON.parse(message.toString()) as CallReply);
    } catch {
      // not ours to understand; the deadline answers the caller
    }
  };
}
