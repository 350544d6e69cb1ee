// The real parts the service stands on: PostgreSQL (embedded PGlite or DATABASE_URL), the MQTT
// broker (embedded aedes or MQTT_URL), migrations, bearer-token keys and the secret box.
// Embedded or not, the application reaches both through the same clients (`pg`, `mqtt`).
import type { Config } from './config/config.ts';
import { createDatabase, servesPglite, type Database } from './db/database.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded-postgres.ts';
import { migrate } from './db/migrate.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt/embedded-broker.ts';
import { connectMqtt, mqttClientId, type MqttConnection } from './mqtt/mqtt-connection.ts';
import { nodeIdentity, type NodeIdentity } from './node-identity.ts';
import { createTokenService, type TokenService } from './auth/tokens.ts';
import type { Logger } from './log/logger.ts';
import { createSecretBox, secretsKeyOf, type SecretBox } from './secrets/secret-box.ts';

export interface Platform {
  config: Config;
  log: Logger;
  /** This engine node: a stable id (its MQTT session) and this run of it. */
  node: NodeIdentity;
  db: Database;
  mqtt: MqttConnection;
  tokens: TokenService;
  /** Seals secrets stored in the database (signing keys, partner credentials). */
  secrets: SecretBox;
  /** Present only when running on the embedded defaults. */
  embedded: { postgres?: EmbeddedPostgres; broker?: EmbeddedBroker };
  close(): Promise<void>;
}

export async function startPlatform(config: Config, log: Logger): Promise<Platform> {
  const embedded: Platform['embedded'] = {};
  const cleanups: Array<() => Promise<void>> = [];
  const node = nodeIdentity(config, log);
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      embedded.postgres = await startEmbeddedPostgres(config.dataDir, { cacheDir: config.cacheDir });
      cleanups.push(() => embedded.postgres!.close());
      databaseUrl = embedded.postgres.url;
      log.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
    }
    // PGlite, embedded or served elsewhere, takes one query at a time (see database.ts).
    const oneAtATime = embedded.postgres !== undefined || (await servesPglite(databaseUrl));
    const db = createDatabase(databaseUrl, log, { oneAtATime });
    cleanups.push(() => db.close());
    await migrate(db, log);

    let mqttUrl = config.mqttUrl;
    if (!mqttUrl) {
      embedded.broker = await startEmbeddedBroker();
      cleanups.push(() => embedded.broker!.close());
      mqttUrl = embedded.broker.url;
      log.info({ url: mqttUrl }, 'embedded MQTT broker started');
    }
    const mqtt = await connectMqtt(mqttUrl, log, {
      clientId: mqttClientId(config.mqttTopicPrefix, node.id),
    });
    cleanups.push(() => mqtt.close());

    const tokens = createTokenService(config);
    const secretsKey = secretsKeyOf(config);
    if (secretsKey.generated && config.auth.jwtSecret !== undefined)
      log.warn('SECRETS_KEY is not set: secrets are sealed with a generated key kept in DATA_DIR');
    return {
      config,
      log,
      node,
      db,
      mqtt,
      tokens,
      secrets: createSecretBox(secretsKey.key),
      embedded,
      close: () => runCleanups(cleanups),
    };
  } catch (err) {
    await runCleanups(cleanups);
    throw err;
  }
}

// Last started, first stopped; one failing cleanup does not keep the others from running.
async function runCleanups(cleanups: Array<() => Promise<void>>): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch(() => undefined);
  }
}
