// Where the chargers of a fleet shared by several nodes run (the cluster node implements it, see
// engine/cluster/cluster-node.ts): the deployment service asks it where a new charger goes and
// sends start, stop, restart and delete to the node that holds the charger.
import type { DeploymentRow } from './deployment-store.ts';

/** The node a new charger's lease is written for (the lease lives as long as the node's presence). */
export interface PlacedLease {
  nodeId: string;
}

export interface FleetPlacement {
  /**
   * The leases `count` new chargers are written with, spread over the live engine nodes as they
   * are now (one read per call, so a node that just joined gets its share); none when no node
   * runs chargers.
   */
  place(count: number): Promise<Array<PlacedLease | undefined>>;
  /**
   * Chargers written with place()'s leases start on those nodes (one message per node); resolves
   * once this node's own have started (a slice per turn of the event loop).
   */
  deployed(placed: Array<{ row: DeploymentRow; nodeId: string | undefined }>): Promise<void>;
  /** Start (from stopped) or restart, at the node holding it, or placed anew. */
  startCharger(row: DeploymentRow, restart: boolean): Promise<void>;
  stop(deploymentId: string): Promise<void>;
  /** Stops the chargers wherever they run, before their rows are deleted. */
  remove(deploymentIds: string[]): Promise<void>;
}

/** This node in the fleet: placement, plus its own start and hand-over. */
export interface FleetNode extends FleetPlacement {
  /** Runs chargers (role engine or all). */
  readonly engine: boolean;
  /** Presence written, before the node serves anything. */
  announce(): Promise<void>;
  /** Resumes this node's chargers and claims its share of the lapsed ones, then renews and claims every tick. */
  start(): Promise<void>;
  /** Runs `task` after each tick that saw a node gone, and at each sweep (about once a minute). */
  onSweep(task: () => Promise<unknown>): void;
  /** After the chargers stopped (snapshots written): leases and presence end, the other nodes claim at once. */
  leave(): Promise<void>;
}
