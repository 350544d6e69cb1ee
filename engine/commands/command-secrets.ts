// A secret sent through a command (E13's 1.6 AuthorizationKey or 2.0.1 SecurityCtrlr.BasicAuthPassword,
// a proxied ChangeConfiguration / SetNetworkProfile ...) reaches the charger and nothing else: the
// stored payload, the 202 answer, E16 and the command list show it masked (what is a secret:
// protocols/ocpp/secret-values.ts, as for the message log), and the charger event that carries it
// is sealed with the service's secret box in the database and on the MQTT bus. Every node opens it
// with the same SECRETS_KEY (docs/operations.md "Several nodes").
import { maskSecretValues } from '../../protocols/ocpp/secret-values.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
import type { ChargerCommand, SealedCommand } from './command-topics.ts';

/** The payload (or answer) as stored and shown: every secret masked. */
export function maskCommand<T>(payload: T): T {
  return maskSecretValues(payload).value as T;
}

// Binds the ciphertext to its command, so a sealed event cannot be moved to another one.
const context = (commandId: string) => `evc_commands:${commandId}`;

/** The event as stored and published: sealed when it carries a secret, as is otherwise. */
export function sealCommand(box: SecretBox, event: ChargerCommand): ChargerCommand | SealedCommand {
  if (!maskSecretValues(event).masked) return event;
  return { sealed: box.seal(JSON.stringify(event), context(event.commandId)) };
}

/** The event to hand to the charger; throws when a sealed one cannot be opened (SECRETS_KEY differs). */
export function openCommand(
  box: SecretBox,
  id: string,
  event: ChargerCommand | SealedCommand,
): ChargerCommand {
  if (!('sealed' in event)) return event;
  return JSON.parse(box.open(event.sealed, context(id))) as ChargerCommand;
}
