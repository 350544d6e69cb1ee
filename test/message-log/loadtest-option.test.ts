// The load test can run its chargers with the OCPP message log on or off (measuring what it costs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLoadtestOptions, UsageError } from '../../tools/loadtest/options.ts';

test('--ocpp-log is off by default; on takes PostgreSQL from --database-url or DATABASE_URL', () => {
  assert.equal(parseLoadtestOptions([]).ocppLog, 'off');
  const url = 'postgres://postgres@127.0.0.1:5432/test';
  const given = parseLoadtestOptions(['--ocpp-log', 'on', '--database-url', url]);
  assert.equal(given.ocppLog, 'on');
  assert.equal(given.databaseUrl, url);
  assert.equal(parseLoadtestOptions(['--ocpp-log', 'on'], { DATABASE_URL: url }).databaseUrl, url);
});

test('--ocpp-log: what cannot be run is a UsageError naming the option', () => {
  assert.throws(
    () => parseLoadtestOptions(['--ocpp-log', 'maybe']),
    (e: Error) => e instanceof UsageError && /--ocpp-log must be on or off/.test(e.message),
  );
  assert.throws(() => parseLoadtestOptions(['--ocpp-log', 'on']), /--ocpp-log on needs a postgres:\/\/ URL/);
  assert.throws(
    () =>
      parseLoadtestOptions([
        '--ocpp-log',
        'on',
        '--database-url',
        'postgres://x/y',
        '--via-api',
        'http://x',
        '--token',
        't',
      ]),
    /--ocpp-log applies to chargers run here/,
  );
});
