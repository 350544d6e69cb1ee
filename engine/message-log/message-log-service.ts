// The message log of one service process: capture (handed to the chargers' links and the central
// system's connections), reads from PostgreSQL, live streams (this node's frames and, over the
// broker, those of the node holding the charger), and pruning. What api/server.ts creates once.
import type { FrameObserver } from '../../protocols/ocpp/index.ts';
import type { Platform } from '../platform/platform.ts';
import { LogRelay } from './log-relay.ts';
import { openLogStream, type LogStream, type LogStreamHandlers } from './log-stream.ts';
import { MessageLog } from './message-log.ts';
import type { LogOwner, OcppLogStore } from './ocpp-log-store.ts';

export interface MessageLogService {
  readonly enabled: boolean;
  readonly store: OcppLogStore;
  readonly messageLog: MessageLog;
  /** The frame observer of a connection of charger `key`; undefined when the log is off. */
  observer(key: string): FrameObserver | undefined;
  /** A live view of one charger's log (see openLogStream). */
  stream(owner: LogOwner, replay: number, handlers: LogStreamHandlers): Promise<LogStream>;
  /** Writes what was captured, ends live streams. */
  close(): Promise<void>;
}

export async function startMessageLogService(platform: Platform): Promise<MessageLogService> {
  const { config, db } = platform;
  const log = platform.log.child({ area: 'ocpp-log' });
  const messageLog = new MessageLog({
    db,
    log,
    enabled: config.ocppLog.enabled,
    retentionHours: config.ocppLog.retentionHours,
    maxPerCharger: config.ocppLog.maxPerCharger,
  });
  const relay = new LogRelay({
    mqtt: platform.mqtt.client,
    topicPrefix: config.mqttTopicPrefix,
    log,
    messageLog,
  });
  await relay.start();
  let closing: Promise<void> | undefined;
  return {
    enabled: messageLog.enabled,
    store: messageLog.store,
    messageLog,
    observer: (key) => messageLog.observer(key),
    stream: (owner, replay, handlers) => openLogStream({ messageLog, relay }, owner, replay, handlers),
    close() {
      closing ??= (async () => {
        await relay.close();
        await messageLog.close();
      })();
      return closing;
    },
  };
}
