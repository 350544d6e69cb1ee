// The engine's one MQTT client. It reconnects by itself; `connected` is what health reports
// and what the command producer checks before accepting work.
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from '../log/logger.ts';

export interface MqttConnection {
  client: MqttClient;
  readonly connected: boolean;
  close(): Promise<void>;
}

export async function connectMqtt(url: string, log: Logger, waitMs = 5_000): Promise<MqttConnection> {
  const client = mqtt.connect(url, {
    // 3.1.1: the embedded broker (aedes) refuses MQTT 5.
    protocolVersion: 4,
    reconnectPeriod: 1_000,
    connectTimeout: 5_000,
    clientId: `evsim-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
    clean: true,
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
