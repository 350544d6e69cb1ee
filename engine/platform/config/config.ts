// The one place that reads the environment. Everything else receives a Config.
import { resolve } from 'node:path';
import { z } from 'zod';
import { HOST_PATTERN, type HostAllowList } from '../net/allowed-fetch.ts';

const intFrom = (fallback: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `must be an integer >= ${min}` });
        return z.NEVER;
      }
      return n;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v));

const envSchema = z.object({
  PORT: intFrom(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  MQTT_URL: optionalString.pipe(
    z
      .string()
      .regex(/^(mqtts?|wss?|tcp):\/\//, 'must be an mqtt:// URL')
      .optional(),
  ),
  MQTT_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('evsim'),
  DATA_DIR: z.string().default('./.data'),
  EVSIM_CACHE_DIR: optionalString,
  NODE_ID: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores')
      .optional(),
  ),
  AUTH_JWT_SECRET: optionalString,
  AUTH_JWKS_URL: optionalString.pipe(z.url().optional()),
  AUTH_ISSUER: optionalString,
  AUTH_AUDIENCE: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  BODY_LIMIT: z.string().default('1mb'),
  PUBLIC_URL: optionalString,
  OCPI_TIMEOUT_MS: intFrom(10_000, 1),
  RATE_LIMIT_PER_SECOND: intFrom(50, 1),
  RATE_LIMIT_BURST: intFrom(100, 1),
  VOUCHER_DELETE_MAX: intFrom(10_000, 0),
  IDEMPOTENCY_TTL_SECONDS: intFrom(86_400, 1),
  SECRETS_KEY: optionalString,
  CSMS_HEARTBEAT_INTERVAL: intFrom(300, 1),
  OCPP_CALL_TIMEOUT_MS: intFrom(30_000, 1),
  COMMAND_TIMEOUT_MS: intFrom(60_000, 1),
  STAGE_DEADLINES: optionalString.pipe(
    z
      .string()
      .regex(
        /^(connecting|registering|offline)=\d+(,(connecting|registering|offline)=\d+)*$/,
        'must look like connecting=30,registering=120,offline=300 (seconds)',
      )
      .optional(),
  ),
  INSPECT: optionalString,
  OCPP_LOG: z.enum(['on', 'off']).default('on'),
  OCPP_LOG_RETENTION_HOURS: intFrom(24, 1),
  OCPP_LOG_MAX_PER_CHARGER: intFrom(1000, 1),
  STAGE_EVENTS_RETENTION_HOURS: intFrom(168, 1),
  STAGE_EVENTS_MAX_PER_CHARGER: intFrom(1000, 1),
  INSPECT_URL: optionalString.pipe(
    z
      .string()
      .regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL')
      .optional(),
  ),
  // GET /metrics without a bearer token (engine/metrics)
  METRICS_PUBLIC: z.enum(['true', 'false']).default('false'),
  // Several nodes sharing one fleet (engine/cluster)
  LEASE_TTL_SECONDS: intFrom(15, 1),
  NODE_ROLE: z.enum(['api', 'engine', 'all']).default('all'),
  // Hosts firmware downloads and log uploads may reach (engine/platform/net/allowed-fetch.ts)
  TRANSFER_ALLOWED_HOSTS: optionalString.pipe(
    z
      .string()
      .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()))
      .pipe(
        z.array(
          z
            .string()
            .regex(HOST_PATTERN, 'must be a comma list of host names, *.domain names or IP addresses'),
        ),
      )
      .optional(),
  ),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl?: string;
  mqttUrl?: string;
  mqttTopicPrefix: string;
  dataDir: string;
  /** This engine node's stable name (its MQTT session); unset: one generated once and kept in DATA_DIR. */
  nodeId?: string;
  auth: { jwtSecret?: string; jwksUrl?: string; issuer?: string; audience?: string };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** `json` lines, a compact `pretty` line for a person, or `auto`: pretty on a terminal, else JSON. */
  logFormat: z.infer<typeof envSchema>['LOG_FORMAT'];
  bodyLimit: string;
  /** Where the empty embedded cluster is cached (default node_modules/.cache/evsim). */
  cacheDir?: string;
  publicUrl?: string;
  ocpiTimeoutMs: number;
  rateLimit: { perSecond: number; burst: number };
  voucherDeleteMax: number;
  idempotencyTtlSeconds: number;
  /** Key that encrypts secrets at rest (signing keys); dev mode keeps a generated one in DATA_DIR. */
  secretsKey?: string;
  /** Built-in central system: heartbeat interval given in BootNotification; CSMS-to-charger call timeout. */
  centralSystem: { heartbeatIntervalSeconds: number; callTimeoutMs: number };
  /** A command not final this long after it was queued ends timed_out (E16). */
  commandTimeoutMs: number;
  /** Seconds a charger may stay in a stage before it is reported `stuck`; unset keeps the charger's defaults. */
  stageDeadlines: { connecting?: number; registering?: number; offline?: number };
  /** XState inspection of chosen chargers (INSPECT: identity, comma list or *); off when unset. */
  inspect?: { identities: '*' | string[]; url: string };
  /** The OCPP message log: on or off (the largest load tests), kept this many hours and rows per charger. */
  ocppLog: { enabled: boolean; retentionHours: number; maxPerCharger: number };
  stageEvents: { retentionHours: number; maxPerCharger: number };
  /** Several nodes: a charger lease lasts this long unless renewed (every third of it); `api`, `engine` or `all`. */
  cluster: { leaseTtlSeconds: number; role: 'api' | 'engine' | 'all' };
  /** The only hosts firmware downloads and log uploads reach; unset: any. */
  transferAllowedHosts?: HostAllowList;
  /** GET /metrics: `public` serves it without a bearer token (a scraper inside the network). */
  metrics: { public: boolean };
};

export class ConfigError extends Error {}

/** Where inspection events go when INSPECT is set without INSPECT_URL. */
export const DEFAULT_INSPECT_URL = 'ws://127.0.0.1:8090';

function inspectList(value: string): '*' | string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return items.includes('*') ? '*' : items;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqttTopicPrefix: e.MQTT_TOPIC_PREFIX,
    dataDir: resolve(e.DATA_DIR),
    nodeId: e.NODE_ID,
    auth: {
      jwtSecret: e.AUTH_JWT_SECRET,
      jwksUrl: e.AUTH_JWKS_URL,
      issuer: e.AUTH_ISSUER,
      audience: e.AUTH_AUDIENCE,
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    bodyLimit: e.BODY_LIMIT,
    cacheDir: e.EVSIM_CACHE_DIR ? resolve(e.EVSIM_CACHE_DIR) : undefined,
    publicUrl: e.PUBLIC_URL,
    ocpiTimeoutMs: e.OCPI_TIMEOUT_MS,
    rateLimit: { perSecond: e.RATE_LIMIT_PER_SECOND, burst: e.RATE_LIMIT_BURST },
    voucherDeleteMax: e.VOUCHER_DELETE_MAX,
    idempotencyTtlSeconds: e.IDEMPOTENCY_TTL_SECONDS,
    secretsKey: e.SECRETS_KEY,
    centralSystem: {
      heartbeatIntervalSeconds: e.CSMS_HEARTBEAT_INTERVAL,
      callTimeoutMs: e.OCPP_CALL_TIMEOUT_MS,
    },
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    stageDeadlines: Object.fromEntries(
      (e.STAGE_DEADLINES ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('='))
        .map(([stage, seconds]) => [stage, Number(seconds)]),
    ),
    ocppLog: {
      enabled: e.OCPP_LOG === 'on',
      retentionHours: e.OCPP_LOG_RETENTION_HOURS,
      maxPerCharger: e.OCPP_LOG_MAX_PER_CHARGER,
    },
    stageEvents: {
      retentionHours: e.STAGE_EVENTS_RETENTION_HOURS,
      maxPerCharger: e.STAGE_EVENTS_MAX_PER_CHARGER,
    },
    cluster: { leaseTtlSeconds: e.LEASE_TTL_SECONDS, role: e.NODE_ROLE },
    metrics: { public: e.METRICS_PUBLIC === 'true' },
    ...(e.TRANSFER_ALLOWED_HOSTS ? { transferAllowedHosts: e.TRANSFER_ALLOWED_HOSTS } : {}),
    ...(e.INSPECT
      ? { inspect: { identities: inspectList(e.INSPECT), url: e.INSPECT_URL ?? DEFAULT_INSPECT_URL } }
      : {}),
  };
}

/** Dev mode: no AUTH_* configured, so a generated secret in DATA_DIR signs tokens. */
export function isDevAuth(config: Config): boolean {
  return !config.auth.jwtSecret && !config.auth.jwksUrl;
}
