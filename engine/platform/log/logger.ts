import { pino, type Logger } from 'pino';
import type { Config } from '../config/config.ts';

export type { Logger };

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    // Secrets never reach the log, even if someone logs a header or a config object.
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        'password',
        '*.password',
        'token',
        '*.token',
      ],
      censor: '[redacted]',
    },
  });
}
