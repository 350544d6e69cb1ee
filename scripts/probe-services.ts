// Exits 0 when a PostgreSQL answers a query at DATABASE_URL and an MQTT broker accepts a
// connection at MQTT_URL; CI uses it to decide whether to run the suites on the real services too.
import pg from 'pg';
import mqtt from 'mqtt';

const dbUrl = process.argv[2];
const mqttUrl = process.argv[3];

async function probeDb(): Promise<boolean> {
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeMqtt(): Promise<boolean> {
  try {
    const c = await mqtt.connectAsync(mqttUrl, {
      connectTimeout: 3000,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    await c.endAsync();
    return true;
  } catch {
    return false;
  }
}

const [db, broker] = await Promise.all([probeDb(), probeMqtt()]);
console.log(`postgres ${db ? 'answers' : 'does not answer'}; mqtt ${broker ? 'answers' : 'does not answer'}`);
process.exit(db && broker ? 0 : 1);
