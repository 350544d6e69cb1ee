// Who this engine node is. `id` is stable across restarts (NODE_ID, or a name generated once and
// kept in DATA_DIR): it names the node's persistent MQTT session, so the broker keeps the node's
// QoS 1 messages while it is away. `run` changes with every start: what one run of the node took
// (commands handed to its chargers) is told apart from what an earlier run left behind.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config/config.ts';
import type { Logger } from './log/logger.ts';

export const NODE_ID_FILE = 'node-id';

export interface NodeIdentity {
  id: string;
  run: string;
  /** `id/run`: what the database records as the taker of a command. */
  readonly tag: string;
}

/**
 * SQL: the node named by `column` is live, its presence (evc_nodes, renewed by engine/cluster)
 * not expired. What a charger's lease and a background job live by.
 */
export const nodeIsLive = (column: string): string =>
  `EXISTS (SELECT 1 FROM evc_nodes n WHERE n.node_id = ${column} AND n.expires_at > now())`;

export function nodeIdentity(config: Config, log: Logger): NodeIdentity {
  const id = config.nodeId ?? storedNodeId(config.dataDir, log);
  const run = randomBytes(6).toString('hex');
  return { id, run, tag: `${id}/${run}` };
}

function storedNodeId(dataDir: string, log: Logger): string {
  const path = join(dataDir, NODE_ID_FILE);
  try {
    if (existsSync(path)) {
      const stored = readFileSync(path, 'utf8').trim();
      if (/^[A-Za-z0-9_.-]{1,64}$/.test(stored)) return stored;
    }
    mkdirSync(dataDir, { recursive: true });
    const id = `node-${randomBytes(6).toString('hex')}`;
    writeFileSync(path, id + '\n');
    return id;
  } catch (err) {
    // A read-only DATA_DIR: the node still runs, but its MQTT session does not outlive this run.
    const id = `node-${randomBytes(6).toString('hex')}`;
    log.warn({ err, dataDir }, 'cannot keep the node id in DATA_DIR: set NODE_ID for a stable MQTT session');
    return id;
  }
}
