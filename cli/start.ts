// `npm start`: the API, the simulator engine and the central system on one port. The first line
// printed is for a person: the URL, the console link and (in dev mode) the token; the start-up
// log records come after it (JSON lines when not on a terminal, compact lines on one).
import { isDevAuth, loadConfig, ConfigError } from '../engine/platform/config/config.ts';
import { createReleasableLogger } from '../engine/platform/log/logger.ts';
import { startService } from '../api/server.ts';
import { tuneHeapForChargers } from '../engine/platform/heap-tuning.ts';
import { packageVersion } from './package-version.ts';
import { startBanner } from './start-banner.ts';

async function main(): Promise<void> {
  tuneHeapForChargers();
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
  const { log, release } = createReleasableLogger(config, { hold: true });
  // The log is held until the first line for a person is out; meanwhile say what takes the time.
  process.stderr.write(
    `evsim ${packageVersion()} starting: ${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`}, ` +
      'applying migrations and loading the catalog (a few seconds the first time)...\n',
  );
  let service;
  try {
    service = await startService(config, log);
  } catch (err) {
    release(); // what happened before the failure explains it
    throw err;
  }
  const token =
    isDevAuth(config) && service.platform.tokens.sign
      ? await service.platform.tokens.sign('demo')
      : undefined;
  process.stdout.write(startBanner({ url: service.url, version: packageVersion(), token, config }));
  release();
  log.info({ url: service.url }, 'service ready');

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
