// The replay CLI's options:
//   npm run replay -- FILE --ws-url URL [--speed N|max] [--identity ID] [--ocpp VERSION]
//     [--password P] [--timeout S] [--json]
//   npm run replay -- FILE --to-scenario OUT.yaml [--identity ID] [--ocpp VERSION]
import { parseArgs } from 'node:util';
import { OCPP_VERSIONS, isOcppVersion, type OcppVersion } from '../../protocols/ocpp/index.ts';

export interface ReplayCliOptions {
  file: string;
  wsUrl?: string;
  toScenario?: string;
  /** 0: as fast as possible. */
  speed: number;
  identity?: string;
  version?: OcppVersion;
  password?: string;
  timeoutS: number;
  json: boolean;
}

export const USAGE = `usage: npm run replay -- FILE --ws-url URL [options]
       npm run replay -- FILE --to-scenario OUT.yaml
  FILE                    JSON lines: evsim message log items, or {"t", "dir", "msg"} OCPP-J frames
  --ws-url URL            the central system; the charger connects to URL/IDENTITY
  --speed N|max           recorded time divided by N (default 1); 0 or max: as fast as it answers
  --identity ID           the charge point identity (default: the recording's)
  --ocpp VERSION          ${OCPP_VERSIONS.join(', ')} (default: the recording's subprotocol or boot)
  --password P            HTTP Basic auth password (security profile 1/2)
  --timeout S             time for each answer and each recorded call of the central system (default 30)
  --json                  the report as JSON on stdout
  --to-scenario OUT.yaml  write a scenario reproducing the charger's side instead of replaying
exit code: 0 when no answer differs, 1 when one does, 2 for bad options or a recording or
connection that cannot be used`;

export function parseOptions(argv: string[]): ReplayCliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'ws-url': { type: 'string' },
      'to-scenario': { type: 'string' },
      speed: { type: 'string' },
      identity: { type: 'string' },
      ocpp: { type: 'string' },
      password: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new Error(USAGE);
  if ((values['ws-url'] === undefined) === (values['to-scenario'] === undefined))
    throw new Error('give either --ws-url URL (replay) or --to-scenario OUT.yaml');
  const speedText = values.speed ?? '1';
  const speed = speedText === 'max' ? 0 : Number(speedText);
  if (!Number.isFinite(speed) || speed < 0) throw new Error('--speed: a number >= 0, or max');
  const timeoutS = Number(values.timeout ?? '30');
  if (!Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > 3600)
    throw new Error('--timeout: seconds, more than 0 and at most 3600');
  if (values.ocpp !== undefined && !isOcppVersion(values.ocpp))
    throw new Error(`--ocpp: one of ${OCPP_VERSIONS.join(', ')}`);
  if (values['ws-url'] !== undefined && !/^wss?:\/\//.test(values['ws-url']))
    throw new Error('--ws-url: a ws:// or wss:// URL');
  return {
    file: positionals[0],
    wsUrl: values['ws-url'],
    toScenario: values['to-scenario'],
    speed,
    identity: values.identity,
    version: values.ocpp as OcppVersion | undefined,
    password: values.password,
    timeoutS,
    json: values.json ?? false,
  };
}
