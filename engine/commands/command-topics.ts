// MQTT topics of the command bus: the API publishes one message per charger; every engine node
// subscribes to all of them and acts on the chargers it holds. Deployment ids are uuids, so they
// need no escaping in a topic.
import type { CommandEvent } from '../../actors/charger/charger-ports.ts';

export const commandTopic = (prefix: string, deploymentId: string) =>
  `${prefix}/chargers/${deploymentId}/commands`;
export const commandSubscription = (prefix: string) => `${prefix}/chargers/+/commands`;

/** Published on commandTopic with QoS 1 (so possibly more than once). */
export interface CommandMessage {
  /** The command id (evc_commands.id), also the event's commandId. */
  id: string;
  deployment_id: string;
  /** The charger machine event, ready to send; sealed when it carries a secret (command-secrets.ts). */
  event: ChargerCommand | SealedCommand;
}

export type ChargerCommand = CommandEvent & { commandId: string };
export interface SealedCommand {
  sealed: string;
}

// Several nodes (docs/operations.md "Several nodes"): a command to a charger whose lease names a
// live node goes to that node's topic only (on its persistent session); one without a live owner
// goes to commandTopic, which every engine node takes, and waits in the database for the claimer.
export const nodeCommandTopic = (prefix: string, nodeId: string, deploymentId: string) =>
  `${prefix}/nodes/${nodeId}/chargers/${deploymentId}/commands`;
export const nodeCommandSubscription = (prefix: string, nodeId: string) =>
  `${prefix}/nodes/${nodeId}/chargers/+/commands`;
