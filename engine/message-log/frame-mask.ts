// Secrets never enter the message log: a frame that can carry one (a 1.6 AuthorizationKey, a 2.0.1
// BasicAuthPassword, a network profile's password, a private key) is stored and streamed with the
// secret replaced. Only the frames of the few actions that can carry one are looked at (plus any
// frame holding a PEM private key), so every other frame is kept byte for byte at no cost. What is
// a secret is known once, in protocols/ocpp/secret-values.ts.
import {
  isPrivateKeyPem,
  isSecretName,
  maskSecretValues,
  SECRET_MASK,
} from '../../protocols/ocpp/secret-values.ts';

export const MASK = SECRET_MASK;

/** Actions whose requests or results can carry a secret. */
const SENSITIVE_ACTIONS: ReadonlySet<string> = new Set([
  'ChangeConfiguration', // 1.6: AuthorizationKey
  'GetConfiguration', // 1.6: a charger that echoes AuthorizationKey
  'SetVariables', // 2.0.1: SecurityCtrlr.BasicAuthPassword
  'GetVariables',
  'SetNetworkProfile', // basicAuthPassword of a connection profile
  'DataTransfer',
]);

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
    return isPrivateKeyPem(text) ? JSON.stringify(MASK) : text;
  }
  const { value, masked } = maskSecretValues(data);
  return masked ? JSON.stringify(value) : text;
}

/**
 * A frame the RPC layer could not read, as the valid JSON the log keeps: masked like any frame when
 * it is JSON (a wrong shape may still carry a secret); when it is not, a JSON string of its text,
 * or of MASK when that text names a secret or holds a private key (a broken frame cannot be masked
 * field by field, so it is withheld whole).
 */
export function unreadableFrame(text: string): string {
  try {
    JSON.parse(text);
  } catch {
    return JSON.stringify(isSecretName(text) || isPrivateKeyPem(text) ? MASK : text);
  }
  return maskSecrets(text); // parsed again: a rare frame, and one rule for masking JSON
}
