// `npm run token -- --org ID [--sub SUBJECT] [--expires 30d]`: a bearer token signed with the
// configured secret (AUTH_JWT_SECRET, or the dev secret kept in DATA_DIR). Compiled:
// `node dist/cli/token.js --org ID`. Bad input is one line on stderr and exit 2, never a trace.
import { parseArgs } from 'node:util';
import { loadConfig } from '../engine/platform/config/config.ts';
import { createTokenService } from '../engine/platform/auth/tokens.ts';

const USAGE = `usage: npm run token -- --org ID [--sub SUBJECT] [--expires 30d]
  --org ID          the organization the token acts for (required)
  --sub SUBJECT     the token's subject (default: none)
  --expires PERIOD  how long it is valid: a number and s, m, h, d, w or y (default 30d)
  --help            this text`;

/** What jose's setExpirationTime reads (a positive period, no "ago"). */
const PERIOD =
  /^\d+(?:\.\d+)? ?(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)$/i;

function fail(message: string): never {
  console.error(`token: ${message} (npm run token -- --help)`);
  process.exit(2);
}

let values: { org?: string; sub?: string; expires: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      org: { type: 'string' },
      sub: { type: 'string' },
      expires: { type: 'string', default: '30d' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  // parseArgs names the option (or argument) it could not read; its message is one line.
  fail((err as Error).message.split('\n')[0]);
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.org) {
  console.error(USAGE);
  process.exit(2);
}
if (!PERIOD.test(values.expires))
  fail(`--expires '${values.expires}' is not a period: a number and s, m, h, d, w or y, e.g. 30d or 12h`);

try {
  const tokens = createTokenService(loadConfig());
  if (!tokens.sign)
    fail('AUTH_JWKS_URL is set without AUTH_JWT_SECRET: tokens are issued by your identity provider');
  console.log(await tokens.sign(values.org, { subject: values.sub, expiresIn: values.expires }));
} catch (err) {
  fail((err as Error).message.split('\n')[0]);
}
