// The scenario CLI's options:
//   npm run scenario -- FILE [--ws-url URL] [--security-profile N --password P --ca FILE
//     --crl FILE --client-cert FILE --client-key FILE] [--csms-hook URL] [--var NAME=VALUE ...] [--seed N]
//     [--junit FILE] [--html FILE] [--json FILE] [--boot-timeout S] [--api URL --token T]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The API's `security` of a run (checked by the service, which seals the secrets). */
export interface SecurityOption {
  profile: number;
  password?: string;
  ca_pem?: string;
  crl_pem?: string;
  client_cert_pem?: string;
  client_key_pem?: string;
}

export interface ScenarioCliOptions {
  file: string;
  /** A suite file or folder: run its cases as one run (then `file` is empty). */
  suite?: string;
  /** The profiles the central system claims (a suite's cases of others are not applicable). */
  profiles?: string[];
  /** A suite's cases running at once. */
  concurrency?: number;
  wsUrl?: string;
  security?: SecurityOption;
  csmsHook?: string;
  variables: Record<string, string>;
  seed?: number;
  junit?: string;
  html?: string;
  json?: string;
  bootTimeoutS?: number;
  /** A running service to run the scenario on instead of one started in this process. */
  api?: { url: string; token: string };
}

export const USAGE = `usage: npm run scenario -- FILE [options]
       npm run scenario -- --suite FILE|DIR [--profiles P,P] [--concurrency N] [options]
  --suite FILE|DIR        run a suite (a suite file, or every scenario under a folder) as one run:
                          a verdict per test case, JUnit with a testsuite per profile
  --profiles P,P          the profiles the central system claims (others: not applicable)
  --concurrency N         a suite's cases running at once (default 6)
  --ws-url URL            the central system to test (default: the built-in one of an in-process service)
  --security-profile N    0-3, with --password P (1, 2), --ca FILE (2, 3), --client-cert FILE --client-key FILE (3);
                          --crl FILE at any profile: revocation lists the chargers hold (TLS, firmware signers)
  --csms-hook URL         POSTed {identity, action, payload} for each csms_call step (external central system)
  --var NAME=VALUE        set a scenario variable (repeatable)
  --seed N                seed of the random choices
  --junit FILE            write a JUnit XML report
  --html FILE             write an HTML report
  --json FILE             write the result as JSON
  --boot-timeout S        time for each charger to be accepted (default 60)
  --api URL --token T     run on a running evsim service instead of one started in this process
exit code: 0 when every expectation held, 1 when one failed, 2 when the run could not be carried out`;

export function parseOptions(argv: string[]): ScenarioCliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'ws-url': { type: 'string' },
      'security-profile': { type: 'string' },
      password: { type: 'string' },
      ca: { type: 'string' },
      crl: { type: 'string' },
      'client-cert': { type: 'string' },
      'client-key': { type: 'string' },
      'csms-hook': { type: 'string' },
      var: { type: 'string', multiple: true },
      seed: { type: 'string' },
      junit: { type: 'string' },
      html: { type: 'string' },
      json: { type: 'string' },
      'boot-timeout': { type: 'string' },
      api: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean' },
      suite: { type: 'string' },
      profiles: { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  if (values.help || positionals.length !== (values.suite === undefined ? 1 : 0)) throw new Error(USAGE);
  const int = (name: string, v: string | undefined, min: number, max: number) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name}: an integer from ${min} to ${max}`);
    return n;
  };
  const variables: Record<string, string> = {};
  for (const v of values.var ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(v);
    if (!m) throw new Error(`--var ${v}: NAME=VALUE`);
    variables[m[1]] = m[2];
  }
  const profile = int('security-profile', values['security-profile'], 0, 3);
  const security: SecurityOption | undefined =
    profile === undefined
      ? undefined
      : {
          profile,
          ...(values.password !== undefined && { password: values.password }),
          ...(values.ca !== undefined && { ca_pem: readFileSync(values.ca, 'utf8') }),
          ...(values.crl !== undefined && { crl_pem: readFileSync(values.crl, 'utf8') }),
          ...(values['client-cert'] !== undefined && {
            client_cert_pem: readFileSync(values['client-cert'], 'utf8'),
          }),
          ...(values['client-key'] !== undefined && {
            client_key_pem: readFileSync(values['client-key'], 'utf8'),
          }),
        };
  if ((values.api === undefined) !== (values.token === undefined))
    throw new Error('--api and --token go together');
  if (values.suite !== undefined && values.api !== undefined)
    throw new Error(
      '--suite runs in this process: without --api (a service runs suites at POST /conformance-runs)',
    );
  return {
    file: positionals[0] ?? '',
    suite: values.suite,
    profiles: values.profiles
      ?.split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    concurrency: int('concurrency', values.concurrency, 1, 20),
    wsUrl: values['ws-url'],
    security,
    csmsHook: values['csms-hook'],
    variables,
    seed: int('seed', values.seed, 0, 2 ** 31),
    junit: values.junit,
    html: values.html,
    json: values.json,
    bootTimeoutS: int('boot-timeout', values['boot-timeout'], 1, 3600),
    api: values.api !== undefined ? { url: values.api.replace(/\/$/, ''), token: values.token! } : undefined,
  };
}
