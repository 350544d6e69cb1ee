// The shape of a charger's persisted snapshot over time. SNAPSHOT_VERSION names the current one
// (context.snapshotVersion); MIGRATIONS upgrades a stored snapshot of an earlier version one step
// at a time, so a new version never throws running sessions away. A change to the context or the
// state tree bumps the version, adds a step here, and saves fixtures of the old version first
// (test/actors/charger/snapshots/make-fixtures.ts).
/* eslint-disable @typescript-eslint/no-explicit-any -- stored snapshots are JSON of earlier shapes */

export const SNAPSHOT_VERSION = 3;

type Snapshot = { value: any; context: Record<string, any>; [key: string]: unknown };

/** MIGRATIONS[n] turns a snapshot of version n into one of version n + 1. */
const MIGRATIONS: Record<number, (snapshot: Snapshot) => Snapshot> = {
  // v2: the heartbeat, the meter and the reboot of a reset run on one `timers` region driven by
  // ctx.timers, instead of a `meter` region, a heartbeat region under `online` and ctx.*At fields.
  1: (snapshot) => {
    const { heartbeatAt, meterAt, ...context } = snapshot.context;
    const timers: Record<string, number> = {};
    if (meterAt > 0) timers.meter = meterAt;
    if (heartbeatAt > 0 && context.stage === 'online') timers.heartbeat = heartbeatAt;
    let value = snapshot.value;
    if (value && typeof value === 'object' && value.deployed) {
      const lifecycle = value.deployed.lifecycle;
      value = {
        deployed: {
          lifecycle: lifecycle?.session?.online ? { session: 'online' } : lifecycle,
          timers: Object.keys(timers).length > 0 ? 'armed' : 'idle',
        },
      };
    }
    return { ...snapshot, value, context: { ...context, timers, snapshotVersion: 2 } };
  },
  // v3: ctx.timers run on one delayed event instead of a parallel `timers` region; `deployed` holds
  // the lifecycle's states itself. RESUME arms the timer again, as it re-entered the region before.
  2: (snapshot) => {
    let value = snapshot.value;
    if (value && typeof value === 'object' && value.deployed) value = { deployed: value.deployed.lifecycle };
    return { ...snapshot, value, context: { ...snapshot.context, snapshotVersion: 3 } };
  },
};

/** The version a stored snapshot was written by, if it says. */
export function snapshotVersionOf(snapshot: unknown): number | undefined {
  const v = (snapshot as { context?: { snapshotVersion?: unknown } } | null)?.context?.snapshotVersion;
  return Number.isInteger(v) ? (v as number) : undefined;
}

/** Whether this machine can restore the snapshot: its version or an earlier one it can upgrade. */
export function isRestorableSnapshot(snapshot: unknown): boolean {
  const v = snapshotVersionOf(snapshot);
  if (v === undefined || v < 1 || v > SNAPSHOT_VERSION) return false;
  for (let n = v; n < SNAPSHOT_VERSION; n++) if (!MIGRATIONS[n]) return false;
  return true;
}

/** The snapshot upgraded to SNAPSHOT_VERSION; throws for one this machine cannot restore. */
export function migrateSnapshot(snapshot: unknown): unknown {
  if (!isRestorableSnapshot(snapshot))
    throw new Error(
      `charger snapshot of version ${String(snapshotVersionOf(snapshot))} cannot be restored by version ${SNAPSHOT_VERSION}`,
    );
  let s = snapshot as Snapshot;
  for (let n = snapshotVersionOf(s)!; n < SNAPSHOT_VERSION; n++) s = MIGRATIONS[n](s);
  return s;
}
