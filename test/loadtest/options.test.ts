// The load test's command line as a user types it: defaults, each option, and the sentences
// given for what cannot be run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddressRange, parseLoadtestOptions, UsageError } from '../../tools/loadtest/options.ts';

test('loadtest options: defaults', () => {
  const o = parseLoadtestOptions([]);
  assert.deepEqual(o, {
    chargers: 1000,
    ocpp: 'mix',
    ramp: 0,
    durationSec: 60,
    chargingShare: 0.2,
    heartbeatSec: 300,
    meterIntervalSec: 30,
    localAddresses: [],
    ocppLog: 'off',
    measurements: 'off',
    nodes: 1,
    help: false,
  });
});

test('loadtest options: --measurements on measures the central system as the service does', () => {
  assert.equal(parseLoadtestOptions(['--measurements', 'on']).measurements, 'on');
  assert.throws(() => parseLoadtestOptions(['--measurements', 'yes']), /measurements/);
});

test('loadtest options: --nodes spreads in-process chargers; --service-pid names the service for --via-api', () => {
  assert.equal(parseLoadtestOptions(['--nodes', '3', '--chargers', '30000']).nodes, 3);
  const v = parseLoadtestOptions([
    '--via-api',
    'http://127.0.0.1:8080',
    '--token',
    't',
    '--service-pid',
    '4242',
  ]);
  assert.equal(v.servicePid, 4242);
  assert.equal(v.nodes, 1);
});

test('loadtest options: every option as the issue names it', () => {
  const o = parseLoadtestOptions([
    '--chargers', '10000',
    '--ocpp', '2.0.1',
    '--ramp', '500',
    '--duration', '90',
    '--charging-share', '0.5',
    '--heartbeat', '60',
    '--meter-interval', '15',
    '--csms', 'ws://10.0.0.5:9000/ocpp',
    '--local-addresses', '127.0.0.1-127.0.0.3',
    '--report', 'out/run.json',
  ]); // prettier-ignore
  assert.equal(o.chargers, 10000);
  assert.equal(o.ocpp, 'ocpp2.0.1');
  assert.equal(o.ramp, 500);
  assert.equal(o.durationSec, 90);
  assert.equal(o.chargingShare, 0.5);
  assert.equal(o.heartbeatSec, 60);
  assert.equal(o.meterIntervalSec, 15);
  assert.equal(o.csmsUrl, 'ws://10.0.0.5:9000/ocpp');
  assert.deepEqual(o.localAddresses, ['127.0.0.1', '127.0.0.2', '127.0.0.3']);
  assert.equal(o.reportFile, 'out/run.json');
  assert.equal(parseLoadtestOptions(['--ocpp', '1.6']).ocpp, 'ocpp1.6');
  assert.equal(parseLoadtestOptions(['--ocpp', 'mix']).ocpp, 'mix');
  assert.equal(parseLoadtestOptions(['--ocpp', '2.1']).ocpp, 'ocpp2.1');
  assert.equal(parseLoadtestOptions(['--ocpp', 'ocpp2.0.1']).ocpp, 'ocpp2.0.1');
  assert.equal(parseLoadtestOptions(['-h']).help, true);
});

test('loadtest options: --via-api takes the token from --token or TOKEN, and needs one', () => {
  const a = parseLoadtestOptions(['--via-api', 'http://127.0.0.1:8080/', '--token', 'abc']);
  assert.equal(a.viaApi, 'http://127.0.0.1:8080');
  assert.equal(a.token, 'abc');
  const b = parseLoadtestOptions(['--via-api', 'http://127.0.0.1:8080'], { TOKEN: 'from-env' });
  assert.equal(b.token, 'from-env');
  assert.throws(
    () => parseLoadtestOptions(['--via-api', 'http://127.0.0.1:8080'], {}),
    (e: Error) => e instanceof UsageError && /needs a token/.test(e.message),
  );
});

test('loadtest options: what cannot be run is a UsageError naming the option', () => {
  const cases: [string[], RegExp][] = [
    [['--chargers', '0'], /--chargers must be a positive integer/],
    [['--chargers', '1.5'], /--chargers/],
    [['--chargers', ''], /--chargers/],
    [['--ocpp', '2.2'], /--ocpp must be 1.6, 2.0.1, 2.1 or mix/],
    [['--ramp', '-1'], /--ramp/],
    [['--duration', '0'], /--duration/],
    [['--charging-share', '1.2'], /--charging-share must be a fraction/],
    [['--heartbeat', '0'], /--heartbeat/],
    [['--meter-interval', 'x'], /--meter-interval/],
    [['--csms', 'http://x'], /--csms must be a ws/],
    [['--via-api', 'ws://x', '--token', 't'], /--via-api must be an http/],
    [['--local-addresses', '127.0.0.9-127.0.0.1'], /--local-addresses/],
    [['--unknown'], /Unknown option '--unknown'/],
    [['--nodes', '0'], /--nodes must be a whole number from 1 to 64/],
    [['--nodes', '65'], /--nodes must be a whole number from 1 to 64/],
    [['--nodes', '4', '--chargers', '3'], /--nodes 4 is more than the 3 chargers/],
    [['--nodes', '2', '--via-api', 'http://x', '--token', 't'], /--nodes applies to chargers run here/],
    [
      ['--nodes', '2', '--ocpp-log', 'on', '--database-url', 'postgres://x/y'],
      /--ocpp-log on runs in one process/,
    ],
    [['--service-pid', '12'], /--service-pid applies to --via-api/],
    [['--via-api', 'http://x', '--token', 't', '--service-pid', 'abc'], /--service-pid must be a process id/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseLoadtestOptions(argv),
      (e: Error) => e instanceof UsageError && message.test(e.message),
      argv.join(' '),
    );
  }
});

test('loadtest options: address ranges, short ends and lists', () => {
  assert.deepEqual(parseAddressRange('127.0.0.1-4'), ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4']);
  assert.deepEqual(parseAddressRange('127.0.0.1,127.0.1.7'), ['127.0.0.1', '127.0.1.7']);
  assert.deepEqual(parseAddressRange('127.0.0.255-127.0.1.1'), ['127.0.0.255', '127.0.1.0', '127.0.1.1']);
  assert.throws(() => parseAddressRange('localhost'), UsageError);
  assert.throws(() => parseAddressRange('127.0.0.300'), UsageError);
});

test('loadtest options: --traffic SEED runs generated traffic where the chargers run', () => {
  assert.equal(parseLoadtestOptions(['--traffic', '7']).traffic, 7);
  const split = parseLoadtestOptions(['--traffic', '7', '--nodes', '2', '--chargers', '10']);
  assert.deepEqual([split.traffic, split.nodes], [7, 2]);
  const viaApi = parseLoadtestOptions(['--traffic', '7', '--via-api', 'http://x', '--token', 't']);
  assert.deepEqual([viaApi.traffic, viaApi.viaApi], [7, 'http://x']);
  assert.equal(parseLoadtestOptions([]).traffic, undefined);
  const cases: [string[], RegExp][] = [
    [['--traffic', '1.5'], /--traffic must be a seed/],
    [['--traffic=-1'], /--traffic must be a seed/],
  ];
  for (const [argv, message] of cases)
    assert.throws(
      () => parseLoadtestOptions(argv),
      (e: Error) => e instanceof UsageError && message.test(e.message),
      argv.join(' '),
    );
});
