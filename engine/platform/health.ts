// Readiness: a real query against the database and the MQTT client's connection state.
import type { Database } from './db/database.ts';
import type { MqttConnection } from './mqtt/mqtt-connection.ts';

export interface Readiness {
  status: 'ok' | 'not_ready';
  database: 'ok' | 'error';
  mqtt: 'ok' | 'error';
}

const DB_CHECK_TIMEOUT_MS = 2_000;

export async function checkReadiness(db: Database, mqtt: MqttConnection): Promise<Readiness> {
  const database = await withTimeout(db.query('SELECT 1'), DB_CHECK_TIMEOUT_MS).then(
    () => 'ok' as const,
    () => 'error' as const,
  );
  const broker = mqtt.connected ? ('ok' as const) : ('error' as const);
  return { status: database === 'ok' && broker === 'ok' ? 'ok' : 'not_ready', database, mqtt: broker };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
