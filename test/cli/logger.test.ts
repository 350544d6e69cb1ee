// The one logger: JSON lines for machines, compact lines for a person, start-up records held back
// until the person's first line is out, and secrets redacted in both formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, createReleasableLogger } from '../../engine/platform/log/logger.ts';
import { prettyLine } from '../../engine/platform/log/pretty.ts';

const sink = (isTTY = false) => {
  const lines: string[] = [];
  return { lines, output: { isTTY, write: (s: string) => lines.push(s) } };
};

test('held: records below warn wait for release, in order; a warning goes out at once', () => {
  const { lines, output } = sink();
  const { log, release } = createReleasableLogger(
    { logLevel: 'info', logFormat: 'json' },
    { output, hold: true },
  );
  log.info('first');
  log.warn('careful');
  log.info('second');
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).msg),
    ['careful'],
  );
  release();
  log.info('third');
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).msg),
    ['careful', 'first', 'second', 'third'],
  );
});

test('auto: JSON lines when the output is not a terminal, compact lines when it is', () => {
  const pipe = sink(false);
  createLogger({ logLevel: 'info' }, { output: pipe.output }).info({ identity: 'CP-1' }, 'charger online');
  assert.equal(JSON.parse(pipe.lines[0]).identity, 'CP-1');
  const tty = sink(true);
  createLogger({ logLevel: 'info' }, { output: tty.output }).info({ identity: 'CP-1' }, 'charger online');
  const level = process.env.NO_COLOR ? 'INFO ' : '\u001b[36mINFO \u001b[0m';
  assert.match(tty.lines[0], /^\d\d:\d\d:\d\d /);
  assert.ok(tty.lines[0].endsWith(` ${level} charger online identity=CP-1\n`), JSON.stringify(tty.lines[0]));
});

test('pretty: fields as key=value, strings with spaces quoted, an error with its stack at error level', () => {
  const err = new Error('socket closed');
  const { lines, output } = sink();
  const log = createLogger({ logLevel: 'debug', logFormat: 'pretty' }, { output });
  log.debug({ path: '/a b', status: 200, nested: { x: 1 } }, 'request');
  log.error({ err }, 'shutdown failed');
  assert.match(lines[0], /^\d\d:\d\d:\d\d DEBUG request path="\/a b" status=200 nested=\{"x":1\}\n$/);
  assert.match(lines[1], /ERROR shutdown failed err="socket closed"\n {4}Error: socket closed\n {8}at /);
  assert.equal(prettyLine('not json\n', false), 'not json\n');
});

test('secrets are redacted in both formats', () => {
  for (const logFormat of ['json', 'pretty'] as const) {
    const { lines, output } = sink();
    createLogger({ logLevel: 'info', logFormat }, { output }).info(
      { token: 'secret-token', partner: { password: 'pw' } },
      'partner',
    );
    assert.doesNotMatch(lines[0], /secret-token|"pw"|=pw/);
    assert.match(lines[0], /\[redacted\]/);
  }
});
