// This node in a fleet shared by several nodes on one PostgreSQL and one MQTT broker
// (docs/operations.md "Several nodes"). Ownership is a lease per charger (lease-store.ts):
//
// - every third of the lease TTL the node renews its presence, one row whatever the fleet's size:
//   its leases live as long as it does, and a node that stops renewing (killed, frozen) loses
//   them when its presence lapses;
// - an engine node that sees a node gone (or is told one left) claims lapsed chargers, its fair
//   share at a time, and resumes them from their snapshots; the command consumer takes their open
//   commands over (interrupted / run once). A sweep every minute claims what was missed;
// - a new charger goes to the least-loaded live engine node: its lease is written with its row,
//   and the owner is told over MQTT (`<prefix>/nodes/<node id>/control`, QoS 1 on the node's
//   persistent session); start, stop, restart and delete of a charger go to its owner the same way;
// - a node that leaves (SIGTERM) writes its chargers' snapshots, ends its leases and presence, and
//   says so on `<prefix>/cluster/released`, so the others claim at once instead of after the TTL;
// - charge points shown online by the built-in central system of a gone node are set offline.
//
// A node whose own presence had lapsed (it was frozen past the TTL), and every node at the sweep,
// compares its leases with what it runs: a charger claimed by another node leaves this node
// quietly, one leased here but not held (a control message lost) starts. The single-node default
// is the same with one node.
import type { MqttClient } from 'mqtt';
import type { ChargerHost } from '../deployments/charger-host.ts';
import type { DeploymentRow } from '../deployments/deployment-store.ts';
import type { PlacedLease } from '../deployments/fleet-placement.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { LeaseStore, NodeRole } from './lease-store.ts';

export interface ClusterNodeOptions {
  store: LeaseStore;
  host: ChargerHost;
  mqtt: MqttClient;
  topicPrefix: string;
  nodeId: string;
  run: string;
  role: NodeRole;
  ttlSeconds: number;
  log: Logger;
}

type ControlOp = 'deploy' | 'start' | 'restart' | 'stop' | 'delete';
interface ControlMessage {
  op: ControlOp;
  ids: string[];
}

/** Chargers claimed (and resumed) per statement. */
const CLAIM_PAGE = 500;
/** Ticks between sweeps (claims, lease check, charge points of gone nodes): about a minute at the default TTL. */
const SWEEP_EVERY = 12;

export class ClusterNode {
  readonly engine: boolean;
  /** Live engine nodes and their load, as last read, plus what this node placed since. */
  #loads = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #ticks = 0;
  /** Live nodes at the last tick: one missing at the next is gone. */
  #live = new Set<string>();
  /** A node left (cluster/released): claim at the next tick. */
  #claimNext = false;
  readonly #controlTopic: string;
  readonly #releasedTopic: string;

  constructor(private readonly opts: ClusterNodeOptions) {
    this.engine = opts.role !== 'api';
    this.#controlTopic = `${opts.topicPrefix}/nodes/${opts.nodeId}/control`;
    this.#releasedTopic = `${opts.topicPrefix}/cluster/released`;
  }

  get nodeId(): string {
    return this.opts.nodeId;
  }

  /** Presence first (placement and the central system's presence need it), before anything serves. */
  async announce(): Promise<void> {
    await this.#renew();
    this.#live = await this.#refreshLoads();
  }

  /** Resumes this node's own chargers, claims its share of the lapsed ones, then ticks. */
  async start(): Promise<void> {
    const { mqtt, log } = this.opts;
    mqtt.on('message', this.#onMessage);
    const topics = this.engine ? [this.#controlTopic, this.#releasedTopic] : [];
    const subscribe = () =>
      topics.length === 0
        ? Promise.resolve()
        : mqtt
            .subscribeAsync(topics, { qos: 1 })
            .then(() => undefined)
            .catch((err: unknown) => log.warn({ err }, 'cluster: subscription failed'));
    if (mqtt.connected) await subscribe();
    else mqtt.once('connect', () => void subscribe());
    if (this.engine) {
      let resumed = 0;
      for await (const rows of this.opts.store.own(this.opts.nodeId, CLAIM_PAGE)) {
        if (this.#closed) break;
        resumed += this.#resume(rows);
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (resumed > 0) log.info({ count: resumed }, 'chargers resumed');
      await this.#claimAll();
    }
    const every = Math.max(200, Math.floor((this.opts.ttlSeconds * 1000) / 3));
    this.#timer = setInterval(() => this.#tick(), every);
    this.#timer.unref();
  }

  /** The lease a new charger is written with: the least-loaded live engine node (none: unleased). */
  async place(count: number): Promise<Array<PlacedLease | undefined>> {
    // The nodes' counts come from their last renewal: what this node placed since then still counts.
    const placed = this.#loads;
    await this.#refreshLoads();
    for (const [node, n] of this.#loads) this.#loads.set(node, Math.max(n, placed.get(node) ?? 0));
    return Array.from({ length: count }, () => this.#placeOne());
  }

  /** The least-loaded live engine node (this one on a tie), counted as one charger busier. */
  #placeOne(): PlacedLease | undefined {
    let best: string | undefined;
    let load = Infinity;
    for (const [node, n] of this.#loads)
      if (n < load || (n === load && node === this.opts.nodeId)) [best, load] = [node, n];
    if (best === undefined) return undefined;
    this.#loads.set(best, load + 1);
    return { nodeId: best };
  }

  /** Chargers written with leases (place) start at their nodes: here at once, elsewhere by one message per node. */
  async deployed(placed: Array<{ row: DeploymentRow; nodeId: string | undefined }>): Promise<void> {
    const local: DeploymentRow[] = [];
    const remote = new Map<string, string[]>();
    for (const { row, nodeId } of placed) {
      if (nodeId === this.opts.nodeId) local.push(row);
      else if (nodeId !== undefined) {
        const ids = remote.get(nodeId);
        if (ids) ids.push(row.id);
        else remote.set(nodeId, [row.id]);
      }
    }
    for (const [nodeId, ids] of remote) this.#tell(nodeId, { op: 'deploy', ids });
    await startInSlices(local, (row) => this.opts.host.deploy(row));
  }

  /** E8/E9 start or restart: at its owner, or placed anew when no live node holds it. */
  async startCharger(row: DeploymentRow, restart: boolean): Promise<void> {
    const op = restart ? 'restart' : 'start';
    let owner = await this.opts.store.ownerOf(row.id);
    if (owner === undefined) {
      const placed = this.#placeOne();
      if (!placed || !(await this.opts.store.take(row.id, placed.nodeId))) return; // claimed by the next tick
      owner = placed.nodeId;
    }
    if (owner === this.opts.nodeId) this.opts.host.start(row, restart);
    else this.#tell(owner, { op, ids: [row.id] });
  }

  async stop(deploymentId: string): Promise<void> {
    const owner = await this.opts.store.ownerOf(deploymentId);
    if (owner === undefined || owner === this.opts.nodeId) this.opts.host.stop(deploymentId);
    else this.#tell(owner, { op: 'stop', ids: [deploymentId] });
  }

  /** Before the rows are deleted: their chargers stop wherever they run. */
  async remove(deploymentIds: string[]): Promise<void> {
    const remote = new Map<string, string[]>();
    for (const { id, node_id } of await this.opts.store.ownersOf(deploymentIds))
      if (node_id !== this.opts.nodeId) remote.set(node_id, [...(remote.get(node_id) ?? []), id]);
    for (const [owner, ids] of remote) this.#tell(owner, { op: 'delete', ids });
    await this.opts.host.removeAll(deploymentIds);
  }

  /** SIGTERM, after the chargers stopped and their snapshots were written: hands everything over. */
  async leave(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#ticking?.catch(() => undefined);
    const { mqtt, store, log } = this.opts;
    mqtt.off('message', this.#onMessage);
    try {
      await store.leave(this.opts.nodeId);
    } catch (err) {
      log.warn({ err }, 'cluster: leases not handed over; they lapse after the TTL');
      return;
    }
    if (this.engine && mqtt.connected)
      await mqtt
        .publishAsync(this.#releasedTopic, JSON.stringify({ node_id: this.opts.nodeId }), { qos: 1 })
        .catch(() => undefined);
  }

  /** Stops ticking without handing anything over (the leases lapse): for a failed start. */
  stopTicking(): void {
    clearInterval(this.#timer);
  }

  #tell(nodeId: string, message: ControlMessage): void {
    const topic = `${this.opts.topicPrefix}/nodes/${nodeId}/control`;
    // A lost message is repaired by the owner's next renewal (it holds a lease it does not run).
    this.opts.mqtt.publish(topic, JSON.stringify(message), { qos: 1 }, (err) => {
      if (err) this.opts.log.warn({ err, node: nodeId, op: message.op }, 'cluster: control message not sent');
    });
  }

  readonly #onMessage = (topic: string, payload: Buffer): void => {
    if (this.#closed) return;
    if (topic === this.#releasedTopic) {
      this.#claimNext = true;
      return this.#tick();
    }
    if (topic !== this.#controlTopic) return;
    let m: ControlMessage;
    try {
      m = JSON.parse(payload.toString()) as ControlMessage;
    } catch {
      return;
    }
    if (!Array.isArray(m?.ids)) return;
    this.#control(m).catch((err: unknown) =>
      this.opts.log.warn({ err, op: m.op }, 'cluster: control failed'),
    );
  };

  async #control(m: ControlMessage): Promise<void> {
    const { host, store, nodeId } = this.opts;
    switch (m.op) {
      case 'stop':
        for (const id of m.ids) host.stop(id);
        return;
      case 'delete':
        await host.removeAll(m.ids);
        return;
      case 'deploy':
      case 'start':
      case 'restart':
        await startInSlices(await store.rowsLeased(nodeId, m.ids), (row) =>
          m.op === 'deploy' ? host.deploy(row) : host.start(row, m.op === 'restart'),
        );
    }
  }

  /** One tick at a time; a tick asked for while one runs runs once more after it. */
  #tick(): void {
    if (this.#closed) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = this.#tickOnce()
      .catch((err: unknown) => this.opts.log.warn({ err }, 'cluster: lease renewal failed'))
      .finally(() => {
        this.#ticking = undefined;
        if (this.#again) {
          this.#again = false;
          this.#tick();
        }
      });
  }

  /**
   * Renews the presence; claims and checks only when something changed (a node gone or left, this
   * node's presence lapsed) or at the sweep, since a full claim reads every running deployment.
   */
  async #tickOnce(): Promise<void> {
    const { lapsed } = await this.#renew();
    const live = await this.#refreshLoads();
    const gone = [...this.#live].some((node) => !live.has(node));
    this.#live = live;
    const sweep = ++this.#ticks % SWEEP_EVERY === 0;
    const claim = gone || lapsed || sweep || this.#claimNext;
    this.#claimNext = false;
    if (this.engine && !this.#closed) {
      if (lapsed || sweep) await this.#reconcile();
      if (claim) await this.#claimAll();
    }
    if (gone || sweep) {
      const offline = await this.opts.store.offlineAtGoneNodes();
      if (offline > 0) this.opts.log.info({ count: offline }, 'charge points of a gone node set offline');
      for (const task of this.#onSweep)
        if (!this.#closed)
          await task().catch((err: unknown) => this.opts.log.warn({ err }, 'cluster: sweep task failed'));
    }
  }

  readonly #onSweep: Array<() => Promise<unknown>> = [];

  onSweep(task: () => Promise<unknown>): void {
    this.#onSweep.push(task);
  }

  #renew(): Promise<{ lapsed: boolean }> {
    const { store, nodeId, run, role, host } = this.opts;
    return store.renew({ nodeId, run, role, engine: this.engine, chargers: this.engine ? host.size : 0 });
  }

  /** Placement's view of the live engine nodes; returns every live node. */
  async #refreshLoads(): Promise<Set<string>> {
    const live = await this.opts.store.liveNodes();
    this.#loads = new Map(live.filter((n) => n.engine).map((n) => [n.node_id, n.chargers]));
    if (this.engine && !this.#closed) this.#loads.set(this.opts.nodeId, this.opts.host.size);
    return new Set(live.map((n) => n.node_id));
  }

  async #claimAll(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const rows = await this.opts.store.claim(this.opts.nodeId, CLAIM_PAGE);
      const count = this.#resume(rows);
      if (count > 0) this.opts.log.info({ count }, 'chargers claimed');
      if (rows.length < CLAIM_PAGE) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Rows leased here that this node does not run yet resume from their snapshots. */
  #resume(rows: DeploymentRow[]): number {
    const fresh = rows.filter((r) => !this.opts.host.holds(r.id));
    if (fresh.length > 0) this.opts.host.resume(fresh);
    return fresh.length;
  }

  async #reconcile(): Promise<void> {
    const { store, host, nodeId, log } = this.opts;
    const leased = await store.leasedBy(nodeId);
    const ids = new Set(leased.map((l) => l.id));
    const lost = host.ids().filter((id) => !ids.has(id));
    if (lost.length > 0) {
      // Another node runs them now (this one was frozen past the TTL): leave without writing.
      log.warn({ count: lost.length }, 'cluster: chargers claimed by another node leave this one');
      await host.removeAll(lost);
    }
    const missing = leased.filter((l) => !host.holds(l.id));
    const stale = missing.filter((l) => !l.running).map((l) => l.id);
    if (stale.length > 0) await store.release(nodeId, stale);
    const start = missing.filter((l) => l.running).map((l) => l.id);
    if (start.length > 0) this.#resume(await store.rowsLeased(nodeId, start));
  }
}

/** Chargers started at once per turn of the event loop: an API call waits behind one slice, not a whole chunk. */
const START_SLICE = 50;

/** Starts the chargers in order, a slice per turn (the first slice at once). */
async function startInSlices(rows: DeploymentRow[], start: (row: DeploymentRow) => void): Promise<void> {
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % START_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    start(rows[i]);
  }
}
