// The lines `npm start` prints first, for a person: where the service is, the console link and,
// in dev mode, a token to copy (as the README's walk-through names it: TOKEN and API). The
// wording "listening on URL" and "export TOKEN=" is what scripts and tests look for.
import type { Config } from '../engine/platform/config/config.ts';

/** What `npm start` prints first; `token` only in dev mode. */
export function startBanner(o: {
  url: string;
  version: string;
  token?: string;
  config: Pick<Config, 'databaseUrl' | 'mqttUrl' | 'dataDir' | 'logLevel'>;
}): string {
  const { url, token, config } = o;
  const lines = [
    token
      ? `evsim ${o.version} listening on ${url} · console ${url}/ui/?token=${token}`
      : `evsim ${o.version} listening on ${url} · console ${url}/ui/ (sign in with a bearer token)`,
    token ? `  export TOKEN=${token} API=${url}` : `  export API=${url}`,
    token
      ? '  # dev token of organization "demo", valid 30 days; for another: npm run token -- --org ID'
      : '  # tokens come from your identity provider, or: npm run token -- --org ID (with AUTH_JWT_SECRET)',
    `  # database: ${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.dataDir}`}; ` +
      `MQTT: ${config.mqttUrl ? 'MQTT_URL' : 'embedded broker'}; ` +
      `log level ${config.logLevel} (requests at debug); Ctrl-C stops`,
  ];
  return `${lines.join('\n')}\n`;
}
