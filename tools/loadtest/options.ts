// The load test's command line: `npm run loadtest -- [options]`, parsed and checked into one
// LoadtestOptions object. Errors are UsageErrors with a sentence for the user.
import { parseArgs } from 'node:util';
import { OCPP_VERSIONS, VERSION_PROFILES, type OcppVersion } from '../../protocols/ocpp/versions.ts';

/** One version for every charger, or `mix`: MIX_VERSIONS taken in turn. */
export type OcppMix = OcppVersion | 'mix';

/** What `--ocpp mix` runs, charger by charger: every version in turn (a third each 1.6, 2.0.1, 2.1). */
export const MIX_VERSIONS: readonly OcppVersion[] = OCPP_VERSIONS;

/** The version of charger `i` (0-based) of a run. */
export function versionAt(ocpp: OcppMix, i: number): OcppVersion {
  return ocpp === 'mix' ? MIX_VERSIONS[i % MIX_VERSIONS.length] : ocpp;
}

/** `1.6|2.0.1|2.1|mix`: the versions the chargers speak, by their labels. */
const OCPP_CHOICES = [...OCPP_VERSIONS.map((v) => VERSION_PROFILES[v].label), 'mix'];

export interface LoadtestOptions {
  chargers: number;
  ocpp: OcppMix;
  /** Chargers deployed per second; 0 = all at once. */
  ramp: number;
  /** Seconds from the first deploy to the end of the run. */
  durationSec: number;
  /** Share of the chargers that run a charging session (0..1). */
  chargingShare: number;
  heartbeatSec: number;
  meterIntervalSec: number;
  /** A central system to load instead of the built-in reference one. */
  csmsUrl?: string;
  /** Deploy through the running service's API at this base URL instead of in this process. */
  viaApi?: string;
  token?: string;
  /** --via-api: the service's pid to read its memory and CPU (default: found by the API's port). */
  servicePid?: number;
  /** Engine processes the chargers are spread over (in-process runs); 1 = this process. */
  nodes: number;
  /** Source addresses, round-robin per charger (each allows ~28k connections to one server port). */
  localAddresses: string[];
  /** OCPP message log of the chargers run here: off, or on with write-behind to PostgreSQL. */
  ocppLog: 'on' | 'off';
  /** The chargers' calls measured as the engine measures the central system (engine/metrics). */
  measurements: 'on' | 'off';
  /** PostgreSQL for --ocpp-log on (--database-url or DATABASE_URL). */
  databaseUrl?: string;
  /** Where to write the JSON report; the HTML report goes next to it (.html). */
  reportFile?: string;
  /** MeterValuesSampledData of the chargers (absent: the charger's default). */
  measurands?: string;
  /** Sessions from generated traffic with this seed (engine/traffic) instead of a fixed share plugging in. */
  traffic?: number;
  help: boolean;
}

/** --measurands all: every measurand the charger reads (2.x chargers leave out Temperature, which 2.x lacks). */
export const ALL_MEASURANDS =
  'Energy.Active.Import.Register,Power.Active.Import,Power.Offered,Current.Import,Current.Offered,Voltage,SoC,Temperature';

export class UsageError extends Error {}

export const USAGE = `Usage: npm run loadtest -- [options]

  --chargers N              virtual chargers to run (default 1000)
  --ocpp ${OCPP_CHOICES.join('|').padEnd(18)} OCPP version; mix = each version in turn (default mix)
  --ramp PER_SECOND         chargers deployed per second, 0 = unlimited (default 0)
  --duration SECONDS        length of the run from the first deploy (default 60)
  --charging-share FRACTION share of chargers running a session with meter values (default 0.2)
  --heartbeat SECONDS       heartbeat interval (default 300)
  --meter-interval SECONDS  meter value interval while charging (default 30)
  --csms URL                central system to load (default: a reference central system
                            started in its own process on loopback)
  --via-api URL             deploy through the running service's API (POST /evcharger/location),
                            with --token or env TOKEN
  --token TOKEN             bearer token for --via-api
  --service-pid PID         with --via-api: the service's process, for its memory and CPU
                            (default: the process listening on the --via-api port here)
  --nodes N                 run the chargers in N engine processes (and one reference central
                            system per node), to pass one process's open-files limit (default 1)
  --local-addresses A-B     source addresses round-robin, e.g. 127.0.0.1-127.0.0.8
  --ocpp-log on|off         OCPP message log of the chargers (default off); on writes every frame
                            behind to PostgreSQL (--database-url or DATABASE_URL, schema
                            evsim_loadtest, emptied first)
  --database-url URL        PostgreSQL for --ocpp-log on
  --measurements on|off     measure the central system's answers as the service does
                            (engine/metrics; default off), to see what it costs
  --report FILE             write the JSON report there and the HTML report next to it
  --measurands all|LIST     MeterValuesSampledData of the chargers (default: the charger's own,
                            energy and power); all = every measurand the charger reads
  --traffic SEED            sessions from generated traffic with this seed (EV arrivals, dwell
                            times, tokens, faults, drops) keeping --charging-share of the
                            chargers charging on average, instead of that share plugging in once
                            (with --nodes, each charger draws the sessions it would in one process;
                            with --via-api, the service's traffic runs, one per location)
  -h, --help                this text
`;

function number(name: string, raw: string, check: (n: number) => boolean, what: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${what}, not "${raw}"`);
  return n;
}

const positiveInt = (n: number) => Number.isInteger(n) && n > 0;

function onOff(name: string, raw: string): 'on' | 'off' {
  if (raw !== 'on' && raw !== 'off') throw new UsageError(`--${name} must be on or off, not "${raw}"`);
  return raw;
}

/** A version by its label (2.0.1) or its name (ocpp2.0.1), or mix. */
function ocppOf(raw: string): OcppMix {
  if (raw === 'mix') return raw;
  const version = OCPP_VERSIONS.find((v) => raw === v || raw === VERSION_PROFILES[v].label);
  if (version) return version;
  const choices = `${OCPP_CHOICES.slice(0, -1).join(', ')} or ${OCPP_CHOICES.at(-1)}`;
  throw new UsageError(`--ocpp must be ${choices}, not "${raw}"`);
}

function ipv4ToInt(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    const b = Number(part);
    if (!/^\d{1,3}$/.test(part) || b > 255) return null;
    n = n * 256 + b;
  }
  return n;
}

const intToIpv4 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** `127.0.0.1-127.0.0.8`, `127.0.0.1-8`, or a comma list of addresses and ranges. */
export function parseAddressRange(raw: string): string[] {
  const out: string[] = [];
  for (const item of raw.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    const [from, to] = item.split('-');
    const start = ipv4ToInt(from);
    if (start === null) throw new UsageError(`--local-addresses: "${from}" is not an IPv4 address`);
    if (to === undefined) {
      out.push(from);
      continue;
    }
    // The end may be a whole address or just its last byte.
    const end = /^\d{1,3}$/.test(to) ? (start & ~255) + Number(to) : ipv4ToInt(to);
    if (end === null || end < start || end - start > 1024)
      throw new UsageError(`--local-addresses: "${item}" is not a range of at most 1024 addresses`);
    for (let n = start; n <= end; n++) out.push(intToIpv4(n));
  }
  if (out.length === 0) throw new UsageError('--local-addresses names no address');
  return out;
}

export function parseLoadtestOptions(
  argv: string[],
  env: Record<string, string | undefined> = {},
): LoadtestOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        chargers: { type: 'string', default: '1000' },
        ocpp: { type: 'string', default: 'mix' },
        ramp: { type: 'string', default: '0' },
        duration: { type: 'string', default: '60' },
        'charging-share': { type: 'string', default: '0.2' },
        heartbeat: { type: 'string', default: '300' },
        'meter-interval': { type: 'string', default: '30' },
        csms: { type: 'string' },
        'via-api': { type: 'string' },
        token: { type: 'string' },
        'service-pid': { type: 'string' },
        nodes: { type: 'string', default: '1' },
        'local-addresses': { type: 'string' },
        report: { type: 'string' },
        'ocpp-log': { type: 'string', default: 'off' },
        measurements: { type: 'string', default: 'off' },
        'database-url': { type: 'string' },
        measurands: { type: 'string' },
        traffic: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: LoadtestOptions = {
    chargers: number('chargers', values.chargers, positiveInt, 'a positive integer'),
    ocpp: ocppOf(values.ocpp),
    ramp: number('ramp', values.ramp, (n) => n >= 0, 'a number >= 0'),
    durationSec: number('duration', values.duration, (n) => n > 0, 'a number of seconds > 0'),
    chargingShare: number(
      'charging-share',
      values['charging-share'],
      (n) => n >= 0 && n <= 1,
      'a fraction between 0 and 1',
    ),
    heartbeatSec: number('heartbeat', values.heartbeat, positiveInt, 'a positive whole number of seconds'),
    meterIntervalSec: number(
      'meter-interval',
      values['meter-interval'],
      positiveInt,
      'a positive whole number of seconds',
    ),
    localAddresses: values['local-addresses'] ? parseAddressRange(values['local-addresses']) : [],
    ocppLog: onOff('ocpp-log', values['ocpp-log']),
    measurements: onOff('measurements', values.measurements),
    nodes: number('nodes', values.nodes, (n) => positiveInt(n) && n <= 64, 'a whole number from 1 to 64'),
    help: values.help,
  };
  if (values.csms !== undefined) {
    if (!/^wss?:\/\/./.test(values.csms)) throw new UsageError('--csms must be a ws:// or wss:// URL');
    options.csmsUrl = values.csms;
  }
  if (values['via-api'] !== undefined) {
    if (!/^https?:\/\/./.test(values['via-api']))
      throw new UsageError('--via-api must be an http:// or https:// URL');
    options.viaApi = values['via-api'].replace(/\/+$/, '');
    options.token = values.token ?? env.TOKEN;
    if (!options.token)
      throw new UsageError('--via-api needs a token: --token or the TOKEN environment variable');
    if (options.localAddresses.length > 0)
      throw new UsageError('--local-addresses applies to chargers run here, not with --via-api');
    if (options.nodes > 1) throw new UsageError('--nodes applies to chargers run here, not with --via-api');
    if (values['service-pid'] !== undefined)
      options.servicePid = number('service-pid', values['service-pid'], positiveInt, 'a process id');
  } else if (values['service-pid'] !== undefined) {
    throw new UsageError('--service-pid applies to --via-api');
  }
  if (options.nodes > options.chargers)
    throw new UsageError(`--nodes ${options.nodes} is more than the ${options.chargers} chargers to run`);
  if (options.nodes > 1 && options.ocppLog === 'on')
    throw new UsageError('--ocpp-log on runs in one process: use it without --nodes');
  if (values.report !== undefined) options.reportFile = values.report;
  if (values.measurands !== undefined)
    options.measurands = values.measurands === 'all' ? ALL_MEASURANDS : values.measurands;
  if (values.traffic !== undefined) {
    options.traffic = number(
      'traffic',
      values.traffic,
      (n) => Number.isInteger(n) && n >= 0 && n <= 2 ** 31,
      'a seed: a whole number from 0 to 2147483648',
    );
  }
  if (options.ocppLog === 'on') {
    if (options.viaApi)
      throw new UsageError('--ocpp-log applies to chargers run here; the service has its own OCPP_LOG');
    const url = values['database-url'] ?? env.DATABASE_URL;
    if (!url || !/^postgres(ql)?:\/\//.test(url))
      throw new UsageError('--ocpp-log on needs a postgres:// URL: --database-url or DATABASE_URL');
    options.databaseUrl = url;
  }
  return options;
}
