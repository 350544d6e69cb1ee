// Generated traffic runs of one process, per organization: started on a location's chargers,
// changed (speed, profile, rates) and stopped through the API. Commands go through the command
// bus like any client's, so the sessions show in the message log and the charger detail.
import { randomUUID } from 'node:crypto';
import { dropOldestEnded } from '../platform/keep-newest.ts';
import type { CommandsEngine } from '../commands/commands-engine.ts';
import type { DeploymentsEngine } from '../deployments/deployments-engine.ts';
import type { TrafficChange, TrafficConfig } from './traffic-config.ts';
import { TrafficRun, type SessionRecord, type TrafficCharger, type TrafficStatus } from './traffic-run.ts';

export interface TrafficRunView extends TrafficStatus {
  traffic_id: string;
  location_id: string;
  chargers: number;
  config: TrafficConfig;
  started_at: string;
  stopped_at: string | null;
}

interface Held {
  orgId: string;
  locationId: string;
  run: TrafficRun;
  chargers: number;
  startedAt: string;
  stoppedAt: string | null;
  config: TrafficConfig;
}

export type StartOutcome =
  | { kind: 'started'; view: TrafficRunView }
  | { kind: 'not_found' }
  | { kind: 'empty' }
  /** None of the location's chargers is running (all stopped). */
  | { kind: 'stopped'; chargers: number };

/** Stopped runs kept per organization (in memory: a long-lived service running CI would grow). */
export const KEEP_STOPPED = 100;

export class TrafficService {
  readonly #runs = new Map<string, Held>();

  constructor(private readonly d: { deployments: DeploymentsEngine; commands: CommandsEngine }) {}

  async start(orgId: string, locationId: string, config: TrafficConfig): Promise<StartOutcome> {
    const target = await this.d.commands.resolveTarget(orgId, { location_id: locationId });
    if (target.kind !== 'resolved') return { kind: 'not_found' };
    // In a stable order, so a charger's index (and its random streams) is the same run after run.
    const found = [...target.chargers].sort((a, b) => a.identity.localeCompare(b.identity));
    if (found.length === 0) return { kind: 'empty' };
    // One query for the location (it was one per charger: 1000 round trips before the first event).
    const counts = await this.d.deployments.store.connectorCounts(
      orgId,
      found.map((c) => c.id),
    );
    // Stopped chargers take no command: traffic on them would count sessions no frame carried.
    if (!found.some((c) => counts.get(c.id)?.running)) return { kind: 'stopped', chargers: found.length };
    const chargers: TrafficCharger[] = found.map((c) => ({
      key: c.id,
      identity: c.identity,
      connectors: counts.get(c.id)?.connectors ?? 1,
    }));
    const byKey = new Map(found.map((c) => [c.id, c]));
    const run = new TrafficRun(config, chargers, async (charger, type, payload) => {
      const out = await this.d.commands.producer.queue(orgId, type, payload, [byKey.get(charger.key)!], []);
      if (out.kind !== 'queued' || out.result.failed_count > 0) throw new Error('not queued');
    });
    const id = randomUUID();
    const held: Held = {
      orgId,
      locationId,
      run,
      chargers: chargers.length,
      startedAt: new Date().toISOString(),
      stoppedAt: null,
      config,
    };
    this.#runs.set(id, held);
    return { kind: 'started', view: view(id, held) };
  }

  get(orgId: string, id: string): TrafficRunView | undefined {
    const held = this.#held(orgId, id);
    return held && view(id, held);
  }

  /** The organization's runs, newest first. */
  list(orgId: string): TrafficRunView[] {
    return [...this.#runs]
      .filter(([, h]) => h.orgId === orgId)
      .map(([id, h]) => view(id, h))
      .reverse();
  }

  /** The newest sessions of the run, oldest first. */
  sessions(orgId: string, id: string): SessionRecord[] | undefined {
    return this.#held(orgId, id)?.run.sessions;
  }

  change(orgId: string, id: string, change: TrafficChange): TrafficRunView | undefined {
    const held = this.#held(orgId, id);
    if (!held) return undefined;
    held.run.change(change);
    held.config = { ...held.config, ...change } as TrafficConfig;
    return view(id, held);
  }

  async stop(orgId: string, id: string): Promise<TrafficRunView | undefined> {
    const held = this.#held(orgId, id);
    if (!held) return undefined;
    await held.run.stop();
    held.stoppedAt ??= new Date().toISOString();
    this.#evict(orgId);
    return view(id, held);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#runs.values()].map((h) => h.run.stop()));
  }

  #evict(orgId: string): void {
    dropOldestEnded(this.#runs, (h) => h.orgId === orgId && h.stoppedAt !== null, KEEP_STOPPED);
  }

  #held(orgId: string, id: string): Held | undefined {
    const held = this.#runs.get(id);
    return held && held.orgId === orgId ? held : undefined;
  }
}

function view(id: string, h: Held): TrafficRunView {
  return {
    traffic_id: id,
    location_id: h.locationId,
    chargers: h.chargers,
    config: h.config,
    started_at: h.startedAt,
    stopped_at: h.stoppedAt,
    ...h.run.status(),
  };
}
