// The one logger (pino). JSON lines for machines; on a terminal (LOG_FORMAT=auto) or with
// LOG_FORMAT=pretty, one compact line per record for a person. Start-up can hold records below
// `warn` back until the service has printed its first line (URL and token), then release them.
import { pino, type Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { prettyLine } from './pretty.ts';

export type { Logger };

/** Where log lines go: stdout by default. */
export interface LogOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface LoggerOptions {
  output?: LogOutput;
  /** Hold records below warn until `release()` (start-up: the person's line comes first). */
  hold?: boolean;
}

export interface ReleasableLogger {
  log: Logger;
  /** Writes what was held, in order, and stops holding. */
  release(): void;
}

type LogConfig = Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>;

const WARN = 40;
const LEVEL = /^\{"level":(\d+)/;

export function createReleasableLogger(config: LogConfig, opts: LoggerOptions = {}): ReleasableLogger {
  const output = opts.output ?? process.stdout;
  const format = config.logFormat ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && output.isTTY === true);
  const color = pretty && output.isTTY === true && !process.env.NO_COLOR;
  const emit = pretty
    ? (line: string) => output.write(prettyLine(line, color))
    : (line: string) => output.write(line);
  let held: string[] | undefined = opts.hold ? [] : undefined;
  const destination = {
    write(line: string) {
      if (held && Number(LEVEL.exec(line)?.[1] ?? WARN) < WARN) held.push(line);
      else emit(line);
    },
  };
  const log = pino(
    {
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
    },
    destination,
  );
  return {
    log,
    release() {
      const lines = held ?? [];
      held = undefined;
      for (const line of lines) emit(line);
    },
  };
}

export function createLogger(config: LogConfig, opts: Omit<LoggerOptions, 'hold'> = {}): Logger {
  return createReleasableLogger(config, opts).log;
}
