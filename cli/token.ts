// `npm run token -- --org ID [--sub SUBJECT] [--expires 30d]`: a bearer token signed with the
// configured secret (AUTH_JWT_SECRET, or the dev secret kept in DATA_DIR).
import { parseArgs } from 'node:util';
import { loadConfig } from '../engine/platform/config/config.ts';
import { createTokenService } from '../engine/platform/auth/tokens.ts';

const { values } = parseArgs({
  options: {
    org: { type: 'string' },
    sub: { type: 'string' },
    expires: { type: 'string', default: '30d' },
  },
});

if (!values.org) {
  console.error('usage: npm run token -- --org ID [--sub SUBJECT] [--expires 30d]');
  process.exit(2);
}
const tokens = createTokenService(loadConfig());
if (!tokens.sign) {
  console.error('AUTH_JWKS_URL is set without AUTH_JWT_SECRET: tokens are issued by your identity provider');
  process.exit(2);
}
console.log(await tokens.sign(values.org, { subject: values.sub, expiresIn: values.expires }));
