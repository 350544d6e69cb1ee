// The service started in this process for the CLI (embedded database and broker in a temporary
// directory), used like any client: through its API, with a token of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../api/server.ts';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createLogger } from '../../engine/platform/log/logger.ts';

export async function withInProcessService<T>(
  work: (api: { url: string; token: string }) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-scenario-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  });
  try {
    const service = await startService(config, createLogger(config));
    try {
      return await work({ url: service.url, token: await service.platform.tokens.sign!('scenario') });
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
