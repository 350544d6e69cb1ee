// `npm start`: the API, the simulator engine and the central system on one port.
import { isDevAuth, loadConfig, ConfigError } from '../engine/platform/config/config.ts';
import { createLogger } from '../engine/platform/log/logger.ts';
import { startService } from '../api/server.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config);
  const service = await startService(config, log);
  log.info({ url: service.url }, 'service ready');
  console.log(`\nEV charger simulator listening on ${service.url}`);
  if (isDevAuth(config) && service.platform.tokens.sign) {
    const token = await service.platform.tokens.sign('demo');
    console.log('Dev mode: bearer token for organization "demo" (valid 30 days):');
    console.log(`\n  export TOKEN=${token}\n`);
    console.log(`  curl -H "Authorization: Bearer $TOKEN" ${service.url}/evcharger/catalog\n`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
