// The engine's one MQTT client. It reconnects by itself; `connected` is what health reports
// and what the command producer checks before accepting work. The session is persistent
// (clean: false) under a client id that is stable per node and topic prefix, so a broker that
// outlives the node (Mosquitto) keeps the node's subscriptions and its unacknowledged QoS 1
// messages across a reconnect or a restart. The database stays the truth: see docs/commands.md.
import { createHash } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from '../log/logger.ts';

export interface MqttConnection {
  client: MqttClient;
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * The node's client id: one per (topic prefix, node id), so two services sharing a broker under
 * different prefixes never take each other's session. 22 characters: MQTT 3.1.1 brokers must
 * accept up to 23.
 */
export function mqttClientId(topicPrefix: string, nodeId: string): string {
  return `evsim-${createHash('sha256').update(`${topicPrefix}/${nodeId}`).digest('hex').slice(0, 16)}`;
}

export async function connectMqtt(
  url: string,
  log: Logger,
  opts: { clientId: string; waitMs?: number },
): Promise<MqttConnection> {
  const waitMs = opts.waitMs ?? 5_000;
  const client = mqtt.connect(url, {
    // 3.1.1: the embedded broker (aedes) refuses MQTT 5.
    protocolVersion: 4,
    reconnectPeriod: 1_000,
    connectTimeout: 5_000,
    clientId: opts.clientId,
    clean: false,
  });
  let wasConnected = false;
  client.on('connect', () => {
    if (wasConnected) log.info('mqtt reconnected');
    wasConnected = true;
  });
  client.on('offline', () => log.warn('mqtt offline'));
  client.on('error', (err) => log.warn({ err: err.message }, 'mqtt error'));

  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      log.warn({ url: redactUrl(url) }, 'mqtt broker not reachable yet; retrying in the background');
      resolve();
    }, waitMs);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  return {
    client,
    get connected() {
      return client.connected;
    },
    close: () => client.endAsync(true),
  };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '[unparseable url]';
  }
}
