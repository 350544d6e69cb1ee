import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, isDevAuth, loadConfig } from '../../engine/platform/config/config.ts';

test('defaults match interface.md: port 8080 on 0.0.0.0, embedded services, dev auth', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.mqttUrl, undefined);
  assert.equal(c.logLevel, 'info');
  assert.equal(c.rateLimit.perSecond, 50);
  assert.equal(c.rateLimit.burst, 100);
  assert.equal(c.voucherDeleteMax, 10_000);
  assert.equal(c.ocpiTimeoutMs, 10_000);
  assert.ok(c.dataDir.endsWith('.data'));
  assert.equal(isDevAuth(c), true);
});

test('AUTH_JWT_SECRET leaves dev mode', () => {
  assert.equal(isDevAuth(loadConfig({ AUTH_JWT_SECRET: 's3cret' })), false);
});

test('a PORT that is not an integer is refused with a message naming it', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /PORT/);
      return true;
    },
  );
});

test('a DATABASE_URL that is not a postgres URL is refused', () => {
  assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL: must be a postgres:\/\/ URL/);
});

test('an unknown LOG_LEVEL is refused', () => {
  assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), ConfigError);
});

test('STAGE_DEADLINES sets the stuck deadlines per stage in seconds', () => {
  assert.deepEqual(loadConfig({ STAGE_DEADLINES: 'connecting=5,offline=600' }).stageDeadlines, {
    connecting: 5,
    offline: 600,
  });
  assert.deepEqual(loadConfig({}).stageDeadlines, {});
});

test('a malformed STAGE_DEADLINES is refused with the expected form', () => {
  assert.throws(
    () => loadConfig({ STAGE_DEADLINES: 'booting=5' }),
    /connecting=30,registering=120,offline=300/,
  );
});

// Several nodes (engine/cluster)
test('the cluster defaults: leases of 15 s, a node that runs the API and chargers', () => {
  assert.deepEqual(loadConfig({}).cluster, { leaseTtlSeconds: 15, role: 'all' });
  assert.deepEqual(loadConfig({ LEASE_TTL_SECONDS: '3', NODE_ROLE: 'engine' }).cluster, {
    leaseTtlSeconds: 3,
    role: 'engine',
  });
});

test('a NODE_ROLE other than api, engine or all and a LEASE_TTL_SECONDS below 1 are refused', () => {
  assert.throws(() => loadConfig({ NODE_ROLE: 'both' }), /NODE_ROLE/);
  assert.throws(() => loadConfig({ LEASE_TTL_SECONDS: '0' }), /LEASE_TTL_SECONDS: must be an integer >= 1/);
});
