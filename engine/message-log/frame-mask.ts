// Secrets never enter the message log: a frame that can carry one (a 1.6 AuthorizationKey, a 2.0.1
// BasicAuthPassword, a network profile's password, a private key) is stored and streamed with the
// secret replaced. Only the frames of the few actions that can carry one are looked at (plus any
// frame holding a PEM private key), so every other frame is kept byte for byte at no cost.

export const MASK = '********';

/** Actions whose requests or results can carry a secret. */
const SENSITIVE_ACTIONS: ReadonlySet<string> = new Set([
  'ChangeConfiguration', // 1.6: AuthorizationKey
  'GetConfiguration', // 1.6: a charger that echoes AuthorizationKey
  'SetVariables', // 2.0.1: SecurityCtrlr.BasicAuthPassword
  'GetVariables',
  'SetNetworkProfile', // basicAuthPassword of a connection profile
  'DataTransfer',
]);

/** Names of configuration keys / variables whose value is a secret. */
const SECRET_NAME = /authorizationkey|password|passphrase|secret|privatekey/i;
const PRIVATE_KEY_PEM = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/** Whether the frame may hold a secret and must go through maskSecrets. */
export function mayHoldSecret(action: string | null, text: string): boolean {
  return (action !== null && SENSITIVE_ACTIONS.has(action)) || text.includes('PRIVATE KEY-----');
}

/** The frame with every secret replaced by MASK; the same text when it holds none (or is not JSON). */
export function maskSecrets(text: string): string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return PRIVATE_KEY_PEM.test(text) ? JSON.stringify(MASK) : text;
  }
  const state = { changed: false };
  const masked = walk(data, state);
  return state.changed ? JSON.stringify(masked) : text;
}

function walk(value: unknown, state: { changed: boolean }): unknown {
  if (typeof value === 'string') {
    if (!PRIVATE_KEY_PEM.test(value)) return value;
    state.changed = true;
    return MASK;
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, state));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  // 1.6 ChangeConfiguration / GetConfiguration: {key: 'AuthorizationKey', value: '...'}.
  const keyed = typeof obj.key === 'string' && SECRET_NAME.test(obj.key);
  // 2.0.1 SetVariables / GetVariables: {variable: {name: 'BasicAuthPassword'}, attributeValue: '...'}.
  const variable = obj.variable as { name?: unknown } | undefined;
  const named = typeof variable?.name === 'string' && SECRET_NAME.test(variable.name);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const secret =
      typeof v === 'string' &&
      ((keyed && k === 'value') || (named && k === 'attributeValue') || SECRET_NAME.test(k));
    if (secret) {
      state.changed = true;
      out[k] = MASK;
    } else {
      out[k] = walk(v, state);
    }
  }
  return out;
}
