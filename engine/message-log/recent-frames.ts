// A charger's recent OCPP log for its diagnostics / log upload (engine/charger/transfers.ts): the
// newest frames written to PostgreSQL, and those of its in-memory ring not written yet.
import type { LogFrame } from '../charger/transfers.ts';
import type { MessageLog } from './message-log.ts';

/** The newest `limit` frames of charger `key`, oldest first. */
export async function recentFrames(log: MessageLog, key: string, limit = 1000): Promise<LogFrame[]> {
  await log.flush();
  const stored = await log.store.latest(key, limit);
  const last = stored.at(-1)?.id ?? 0;
  const unwritten = log.recent(key).filter((e) => e.id > last);
  return [...stored, ...unwritten]
    .slice(-limit)
    .map(({ at, direction, action, frame }) => ({ at, direction, action, frame }));
}
