// The command bus of one process: the store the API and E16 read, the producer the API queues
// with, and the consumer that runs commands on the chargers this process holds.
import type { Platform } from '../platform/platform.ts';
import type { ChargerHost } from '../deployments/charger-host.ts';
import { CommandConsumer } from './command-consumer.ts';
import { CommandProducer } from './command-producer.ts';
import { CommandStore } from './command-store.ts';
import { resolveTarget, type CommandTarget, type Resolution } from './command-targets.ts';
import { LinkConditionsBus } from './link-conditions-bus.ts';

export interface CommandsEngine {
  store: CommandStore;
  producer: CommandProducer;
  /** Link conditions (docs/faults.md) to the nodes holding the chargers, over the same broker. */
  linkConditions: LinkConditionsBus;
  /** The chargers a command target names, in the caller's organization (the API's one way in). */
  resolveTarget(orgId: string, target: CommandTarget): Promise<Resolution>;
  /** Subscribes to the command topics (and the link conditions) and starts the deadline sweep. */
  start(): Promise<void>;
  /**
   * This node now holds these chargers (the host calls it after each rehydration page; whatever
   * claims a gone node's chargers calls it too): their open commands are taken over.
   */
  takeOver(deploymentIds: string[]): Promise<void>;
  close(): Promise<void>;
}

export function createCommandsEngine(platform: Platform, host: ChargerHost): CommandsEngine {
  const { config, db, mqtt } = platform;
  const store = new CommandStore(db, config.commandTimeoutMs);
  const producer = new CommandProducer({
    mqtt: mqtt.client,
    store,
    secrets: platform.secrets,
    topicPrefix: config.mqttTopicPrefix,
  });
  const consumer = new CommandConsumer({
    mqtt: mqtt.client,
    store,
    host,
    secrets: platform.secrets,
    topicPrefix: config.mqttTopicPrefix,
    log: platform.log.child({ area: 'commands' }),
    takenBy: platform.node.tag,
    nodeId: platform.node.id,
    sweepMs: Math.min(1_000, Math.max(100, Math.floor(config.commandTimeoutMs / 4))),
    // Well past the usual message delay, well before the deadline.
    unclaimedMs: Math.min(5_000, Math.max(100, Math.floor(config.commandTimeoutMs / 2))),
  });
  const linkConditions = new LinkConditionsBus({
    mqtt: mqtt.client,
    db,
    host,
    topicPrefix: config.mqttTopicPrefix,
    log: platform.log.child({ area: 'link-conditions' }),
  });
  return {
    store,
    producer,
    linkConditions,
    resolveTarget: (orgId, target) => resolveTarget(db, orgId, target),
    start: async () => {
      await consumer.start();
      await linkConditions.start();
    },
    takeOver: (deploymentIds) => consumer.takeOver(deploymentIds),
    close: async () => {
      await linkConditions.close();
      await consumer.close();
    },
  };
}
