// --via-api --traffic SEED: the sessions come from the service's own generated traffic, one run
// per deployed location (POST /traffic-runs), so they go through its command bus as any client's
// would. A location's chargers are indexed from 0 by identity, so location k runs with seed
// SEED + k: the same seed would give every location the same sessions. At the end the runs are
// stopped (DELETE: the EVs still plugged in leave) and their counts added up.
import type { ApiCall } from './service-api.ts';
import type { TrafficFigures } from './run-result.ts';
import { loadtestTrafficConfig } from './traffic.ts';

interface TrafficRunView {
  traffic_id: string;
  sessions_started: number;
  sessions_active: number;
  faults: number;
  drops: number;
  commands_failed: number;
}

export interface ApiTraffic {
  /** EVs plugged in now, over every location. */
  active(): Promise<number>;
  /** Stops every run; what they did, with `activeAtSteady` as given. */
  stop(activeAtSteady: number | null): Promise<TrafficFigures>;
}

export async function startApiTraffic(
  call: ApiCall,
  locations: string[],
  seed: number,
  chargingShare: number,
  connectors: number,
): Promise<ApiTraffic> {
  const config = loadtestTrafficConfig(seed, chargingShare, connectors);
  const runs: string[] = [];
  for (const [k, location] of locations.entries()) {
    const view = await call<TrafficRunView>('POST', '/traffic-runs', {
      ...config,
      seed: seedOf(seed, k),
      location_id: location,
    });
    runs.push(view.traffic_id);
  }
  const views = (method: 'GET' | 'DELETE') =>
    Promise.all(runs.map((id) => call<TrafficRunView>(method, `/traffic-runs/${encodeURIComponent(id)}`)));
  const sum = (all: TrafficRunView[], pick: (v: TrafficRunView) => number) =>
    all.reduce((n, v) => n + pick(v), 0);
  return {
    active: async () => sum(await views('GET'), (v) => v.sessions_active),
    async stop(activeAtSteady) {
      const active = await views('GET');
      const stopped = await views('DELETE');
      return {
        seed,
        arrivalsPerHour: config.arrivals_per_hour[0],
        sessionsStarted: sum(stopped, (v) => v.sessions_started),
        activeAtSteady,
        activeAtEnd: sum(active, (v) => v.sessions_active),
        faults: sum(stopped, (v) => v.faults),
        drops: sum(stopped, (v) => v.drops),
        commandsFailed: sum(stopped, (v) => v.commands_failed),
      };
    },
  };
}

/** The seed of the k-th location's run (wrapping within the seeds the API takes). */
export function seedOf(seed: number, k: number): number {
  return (seed + k) % (2 ** 31 + 1);
}
