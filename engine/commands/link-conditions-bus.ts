// Link conditions (docs/faults.md) from the API to the node holding each charger: one QoS 1 message
// per request on one topic every engine node takes, naming the running chargers it is for; each node
// applies it to those it holds. Not stored: conditions are an experiment on a running charger and
// end with its actor (a stop, a restart, a node's restart or a hand-over to another node), so a
// forgotten condition never outlives the run it was set for.
import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type { LinkConditions, Misbehaviour } from '../charger/link-conditions.ts';
import type { ChargerHost } from '../deployments/charger-host.ts';
import { isUuid } from '../deployments/deployment-store.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Logger } from '../platform/log/logger.ts';
import { publishAcknowledged } from './command-producer.ts';

export const linkConditionsTopic = (prefix: string) => `${prefix}/link-conditions`;

export interface LinkConditionsMessage {
  /** Per request: a message the broker delivers twice is applied once (a second apply would reseed). */
  id: string;
  deployment_ids: string[];
  /** null: cleared. */
  conditions: LinkConditions | null;
  /** Instead of conditions: a misbehaviour on purpose, done once. */
  misbehave?: Misbehaviour;
}

export type LinkConditionsOutcome =
  | { kind: 'not_found' }
  /** The deployment exists but is not running: there is no link to set conditions on. */
  | { kind: 'not_running' }
  | { kind: 'sent'; chargers: number };

export interface LinkConditionsBusOptions {
  mqtt: MqttClient;
  db: Queryable;
  host: ChargerHost;
  topicPrefix: string;
  log: Logger;
  publishTimeoutMs?: number;
}

/** Message ids remembered against redelivery. */
const RECENT = 256;

export class LinkConditionsBus {
  readonly #topic: string;
  readonly #recent = new Set<string>();
  #started = false;

  constructor(private readonly opts: LinkConditionsBusOptions) {
    this.#topic = linkConditionsTopic(opts.topicPrefix);
  }

  /** Engine nodes: take the messages and apply them to the chargers held here. */
  async start(): Promise<void> {
    const { mqtt, log } = this.opts;
    this.#started = true;
    mqtt.on('message', this.#onMessage);
    const subscribe = () =>
      mqtt
        .subscribeAsync(this.#topic, { qos: 1 })
        .then(() => undefined)
        .catch((err: unknown) => log.warn({ err }, 'link conditions subscription failed'));
    if (mqtt.connected) await subscribe();
    else mqtt.once('connect', () => void subscribe());
  }

  async close(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    const { mqtt } = this.opts;
    mqtt.off('message', this.#onMessage);
    if (mqtt.connected) await mqtt.unsubscribeAsync(this.#topic).catch(() => undefined);
  }

  /** One charger of the organization; rejects with BrokerUnavailableError when the message cannot go. */
  async forDeployment(
    orgId: string,
    deploymentId: string,
    conditions: LinkConditions | null,
  ): Promise<LinkConditionsOutcome> {
    if (!isUuid(deploymentId)) return { kind: 'not_found' };
    const { rows } = await this.opts.db.query<{ id: string; desired: string }>(
      'SELECT id::text AS id, desired FROM evc_deployments WHERE organization_id = $1 AND id = $2',
      [orgId, deploymentId],
    );
    if (!rows[0]) return { kind: 'not_found' };
    if (rows[0].desired !== 'running') return { kind: 'not_running' };
    await this.#publish([rows[0].id], conditions);
    return { kind: 'sent', chargers: 1 };
  }

  /** One charger of the organization misbehaves once on purpose. */
  async misbehave(orgId: string, deploymentId: string, m: Misbehaviour): Promise<LinkConditionsOutcome> {
    if (!isUuid(deploymentId)) return { kind: 'not_found' };
    const { rows } = await this.opts.db.query<{ id: string; desired: string }>(
      'SELECT id::text AS id, desired FROM evc_deployments WHERE organization_id = $1 AND id = $2',
      [orgId, deploymentId],
    );
    if (!rows[0]) return { kind: 'not_found' };
    if (rows[0].desired !== 'running') return { kind: 'not_running' };
    await this.#publish([rows[0].id], null, m);
    return { kind: 'sent', chargers: 1 };
  }

  /** Every running charger of a location of the organization (none is still a location found). */
  async forLocation(
    orgId: string,
    locationId: string,
    conditions: LinkConditions | null,
  ): Promise<LinkConditionsOutcome> {
    if (!isUuid(locationId)) return { kind: 'not_found' };
    const { db } = this.opts;
    const { rows: found } = await db.query(
      'SELECT 1 FROM evc_locations WHERE organization_id = $1 AND id = $2',
      [orgId, locationId],
    );
    if (found.length === 0) return { kind: 'not_found' };
    const { rows } = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM evc_deployments
       WHERE organization_id = $1 AND location_id = $2 AND desired = 'running' ORDER BY id`,
      [orgId, locationId],
    );
    if (rows.length > 0)
      await this.#publish(
        rows.map((r) => r.id),
        conditions,
      );
    return { kind: 'sent', chargers: rows.length };
  }

  async #publish(
    deploymentIds: string[],
    conditions: LinkConditions | null,
    misbehave?: Misbehaviour,
  ): Promise<void> {
    const message: LinkConditionsMessage = {
      id: randomUUID(),
      deployment_ids: deploymentIds,
      conditions,
      ...(misbehave ? { misbehave } : {}),
    };
    await publishAcknowledged(this.opts.mqtt, this.#topic, message, this.opts.publishTimeoutMs ?? 5_000);
  }

  readonly #onMessage = (topic: string, payload: Buffer): void => {
    if (topic !== this.#topic) return;
    let m: LinkConditionsMessage;
    try {
      m = JSON.parse(payload.toString()) as LinkConditionsMessage;
    } catch {
      this.opts.log.warn({ topic }, 'link conditions message is not JSON: ignored');
      return;
    }
    if (typeof m?.id !== 'string' || !Array.isArray(m.deployment_ids) || this.#recent.has(m.id)) return;
    this.#recent.add(m.id);
    if (this.#recent.size > RECENT) this.#recent.delete(this.#recent.values().next().value!);
    const { host, log } = this.opts;
    for (const id of m.deployment_ids) {
      if (!m.misbehave) host.setLinkConditions(id, m.conditions ?? null);
      else if (host.holds(id) && !host.misbehave(id, m.misbehave))
        log.info(
          { deploymentId: id, kind: m.misbehave.kind },
          'misbehaviour not done: the charger is not connected',
        );
    }
  };
}
