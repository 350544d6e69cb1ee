// Which values of an OCPP payload are secrets, known in one place: the message log masks frames
// with it, the command bus masks what it stores and answers (engine/commands/command-secrets.ts).
// A secret is the value of a 1.6 configuration key or a 2.0.1 variable named like one (1.6
// AuthorizationKey, 2.0.1 SecurityCtrlr.BasicAuthPassword), any field named like one (a network
// profile's basicAuthPassword), and any PEM private key.

/** What a secret reads as wherever it is shown. */
export const SECRET_MASK = '********';

/** Names of configuration keys, variables and fields whose value is a secret. */
const SECRET_NAME = /authorizationkey|password|passphrase|secret|privatekey/i;
const PRIVATE_KEY_PEM = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);
export const isPrivateKeyPem = (text: string): boolean => PRIVATE_KEY_PEM.test(text);

/** A copy of `value` with every secret replaced by SECRET_MASK (`value` itself when it holds none). */
export function maskSecretValues(value: unknown): { value: unknown; masked: boolean } {
  const state = { masked: false };
  const out = walk(value, state);
  return state.masked ? { value: out, masked: true } : { value, masked: false };
}

function walk(value: unknown, state: { masked: boolean }): unknown {
  if (typeof value === 'string') {
    if (!isPrivateKeyPem(value)) return value;
    state.masked = true;
    return SECRET_MASK;
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, state));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  // 1.6 ChangeConfiguration / GetConfiguration: {key: 'AuthorizationKey', value: '...'}.
  const keyed = typeof obj.key === 'string' && isSecretName(obj.key);
  // 2.0.1 SetVariables / GetVariables: {variable: {name: 'BasicAuthPassword'}, attributeValue: '...'};
  // a variable named by a string ({component, variable, value}) is how evsim's commands write one.
  const variable = obj.variable as { name?: unknown } | string | undefined;
  const variableName = typeof variable === 'string' ? variable : variable?.name;
  const named = typeof variableName === 'string' && isSecretName(variableName);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    // A number or boolean too: a loosely typed secret is still one.
    const secret =
      (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') &&
      (((keyed || named) && k === 'value') || (named && k === 'attributeValue') || isSecretName(k));
    if (secret) {
      state.masked = true;
      out[k] = SECRET_MASK;
    } else {
      out[k] = walk(v, state);
    }
  }
  return out;
}
