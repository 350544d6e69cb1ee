// evc_commands: written by the API (queued, one INSERT per request) and by the engine node holding
// the charger (received, sent, final; each a batched, conditional UPDATE, so a duplicate MQTT
// delivery, a sweep racing a message, or a late answer never moves a command backwards or runs it
// twice). A command is handed to a charger only after the statement that moved it to `sent` and
// recorded the taker (`taken_by`: node id / run) returned: see docs/commands.md.
import type { Queryable } from '../platform/db/database.ts';
import { isUuid } from '../deployments/deployment-store.ts';
import type { CommandStatus, Outcome } from './command-outcome.ts';
import { maskCommand } from './command-secrets.ts';
import type { CommandMessage } from './command-topics.ts';

export interface NewCommand {
  id: string;
  organization_id: string;
  deployment_id: string;
  identity: string;
  event_type: string;
  ocpp_version: string;
  payload: object;
  /** The charger event, kept so that a node taking the charger over can run the command. */
  event?: CommandMessage['event'];
}

/** The E16 record. */
export interface CommandRecord {
  id: string;
  charger_id: string;
  identity: string;
  event_type: string;
  status: CommandStatus;
  payload: object;
  response: object | null;
  error: { code: string; description?: string } | null;
  created_at: string;
  received_at: string | null;
  completed_at: string | null;
}

/** A command's outcome and when the charger reported it. */
export type Finished = Outcome & { id: string; at: Date };

const FINISH = `UPDATE evc_commands c SET status = v.status, response = v.response, error = v.error,
    completed_at = v.at, received_at = COALESCE(c.received_at, v.at)
  FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, status text, response jsonb, error jsonb, at timestamptz)
  WHERE c.id = v.id AND c.status IN ('queued', 'received', 'sent')`;

export interface TimedOut {
  id: string;
  at: Date;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

const RECORD = `id::text AS id, deployment_id::text AS charger_id, identity, event_type, status, payload, response,
  error, created_at, received_at, completed_at`;

// Stored masked already; masked again on the way out for rows written before secrets were.
const record = (r: CommandRecord): CommandRecord => ({
  ...r,
  payload: maskCommand(r.payload),
  response: maskCommand(r.response),
  created_at: iso(r.created_at)!,
  received_at: iso(r.received_at),
  completed_at: iso(r.completed_at),
});

export interface CommandListQuery {
  deploymentId?: string;
  status?: CommandStatus;
  limit: number;
  offset: number;
}

export class CommandStore {
  constructor(
    private readonly db: Queryable,
    /** A command not final this long after it was queued ends timed_out. */
    private readonly timeoutMs: number,
  ) {}

  /** All rows of one request in one statement. */
  async insert(commands: NewCommand[]): Promise<void> {
    if (commands.length === 0) return;
    await this.db.query(
      `INSERT INTO evc_commands (id, organization_id, deployment_id, identity, event_type, ocpp_version, payload,
         event, deadline_at)
       SELECT v.id, v.organization_id, v.deployment_id, v.identity, v.event_type, v.ocpp_version, v.payload,
              v.event, now() + make_interval(secs => $2::double precision / 1000)
       FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, organization_id text, deployment_id uuid, identity text,
         event_type text, ocpp_version text, payload jsonb, event jsonb)`,
      [JSON.stringify(commands), this.timeoutMs],
    );
  }

  /** Rows whose message never left (the broker went away): nothing is left behind. */
  async deleteQueued(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(`DELETE FROM evc_commands WHERE id = ANY($1::uuid[]) AND status = 'queued'`, [ids]);
  }

  /**
   * queued -> sent, the taker recorded: the hot path of a charger that can act now. One statement
   * per batch; returns the ids it moved (the only ones to hand over: a redelivery moves nothing).
   */
  async handOver(ids: string[], takenBy: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE evc_commands SET status = 'sent', received_at = now(), sent_at = now(), taken_by = $2
       WHERE id = ANY($1::uuid[]) AND status = 'queued' RETURNING id::text AS id`,
      [ids, takenBy],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * queued -> received for a charger this node holds that is not back yet (after a restart or a
   * take-over): the command waits in this run until the charger is. Returns the ids moved.
   */
  async hold(ids: string[], takenBy: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE evc_commands SET status = 'received', received_at = now(), taken_by = $2
       WHERE id = ANY($1::uuid[]) AND status = 'queued' RETURNING id::text AS id`,
      [ids, takenBy],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** received -> sent for commands this run holds (their charger is back). Returns the ids moved. */
  async handOverHeld(ids: string[], takenBy: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE evc_commands SET status = 'sent', sent_at = now()
       WHERE id = ANY($1::uuid[]) AND status = 'received' AND taken_by = $2 RETURNING id::text AS id`,
      [ids, takenBy],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * This run starts holding these chargers (rehydrated at start, or taken over from a node that is
   * gone): what an earlier run handed to them without a recorded outcome ends `interrupted`; what
   * is queued, or was received by an earlier run and never handed over, is now held by this run
   * (received), oldest first, to be handed over once the charger is back.
   */
  async takeOver(
    deploymentIds: string[],
    takenBy: string,
  ): Promise<{ interrupted: number; held: CommandMessage[] }> {
    if (deploymentIds.length === 0) return { interrupted: 0, held: [] };
    const { rowCount } = await this.db.query(
      `UPDATE evc_commands SET status = 'interrupted', completed_at = now(),
         error = jsonb_build_object('code', 'INTERRUPTED', 'description',
           'the engine node stopped after handing the command to the charger and before its outcome was recorded; it may have reached the central system, so it is not run again')
       WHERE deployment_id = ANY($1::uuid[]) AND status = 'sent' AND taken_by IS DISTINCT FROM $2`,
      [deploymentIds, takenBy],
    );
    const { rows } = await this.db.query<CommandMessage & { created_at: Date }>(
      `UPDATE evc_commands SET status = 'received', received_at = COALESCE(received_at, now()), taken_by = $2
       WHERE deployment_id = ANY($1::uuid[]) AND event IS NOT NULL AND deadline_at > now()
         AND (status = 'queued' OR (status = 'received' AND taken_by IS DISTINCT FROM $2))
       RETURNING id::text AS id, deployment_id::text AS deployment_id, event, created_at`,
      [deploymentIds, takenBy],
    );
    rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
    return {
      interrupted: rowCount ?? 0,
      held: rows.map((r) => ({ id: r.id, deployment_id: r.deployment_id, event: r.event })),
    };
  }

  /**
   * Queued commands no node took within `ageMs` (their MQTT message was lost, or came before the
   * charger was held anywhere), oldest first.
   */
  async unclaimed(ageMs: number, limit: number): Promise<CommandMessage[]> {
    const { rows } = await this.db.query<CommandMessage>(
      `SELECT id::text AS id, deployment_id::text AS deployment_id, event FROM evc_commands
       WHERE status = 'queued' AND event IS NOT NULL
         AND created_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY created_at LIMIT $2`,
      [ageMs, limit],
    );
    return rows;
  }

  /** Final outcomes in one statement; a command already final keeps its first outcome. */
  async finish(outcomes: Finished[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db.query(FINISH, [JSON.stringify(outcomes)]);
  }

  /**
   * Outcomes, then received -> sent for held commands of this run (their chargers' next ones), in
   * one statement: a charger's next command is never handed over before the outcome of the one
   * before is stored (command-turns.ts), and a turn costs one round trip. Returns the ids moved.
   */
  async finishAndHandOver(outcomes: Finished[], ids: string[], takenBy: string): Promise<Set<string>> {
    if (ids.length === 0) {
      await this.finish(outcomes);
      return new Set();
    }
    if (outcomes.length === 0) return this.handOverHeld(ids, takenBy);
    // A data-modifying WITH runs once whether or not the main statement reads it.
    const { rows } = await this.db.query<{ id: string }>(
      `WITH finished AS (${FINISH})
       UPDATE evc_commands SET status = 'sent', sent_at = now()
       WHERE id = ANY($2::uuid[]) AND status = 'received' AND taken_by = $3 RETURNING id::text AS id`,
      [JSON.stringify(outcomes), ids, takenBy],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Commands of chargers that no node will run (desired stopped, or deleted) fail at once instead
   * of waiting for their deadline. Returns the ids failed.
   */
  async failUnrunnable(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE evc_commands c SET status = 'failed', received_at = now(), completed_at = now(),
         error = jsonb_build_object('code', 'NOT_RUNNING', 'description',
           CASE WHEN EXISTS (SELECT 1 FROM evc_deployments d WHERE d.id = c.deployment_id)
             THEN 'the charger is stopped' ELSE 'the charger was deleted' END)
       WHERE c.id = ANY($1::uuid[]) AND c.status = 'queued'
         AND NOT EXISTS (SELECT 1 FROM evc_deployments d WHERE d.id = c.deployment_id AND d.desired = 'running')
       RETURNING c.id::text AS id`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** Every open command past its deadline ends timed_out (one statement for the whole table); returns their ids. */
  async sweep(): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE evc_commands SET status = 'timed_out', completed_at = now(),
         error = jsonb_build_object('code', 'TIMEOUT', 'description', CASE status
           WHEN 'queued' THEN 'no engine node holding the charger took the command in time'
           WHEN 'received' THEN 'the charger did not come back in time to take the command'
           ELSE 'the charger did not report an outcome in time' END)
       WHERE status IN ('queued', 'received', 'sent') AND deadline_at < now()
       RETURNING id::text AS id`,
    );
    return rows.map((r) => r.id);
  }

  /** E16: undefined until the charger has received the command, and for other organizations. */
  async get(orgId: string, id: string): Promise<CommandRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const { rows } = await this.db.query<CommandRecord>(
      `SELECT ${RECORD} FROM evc_commands WHERE organization_id = $1 AND id = $2 AND status <> 'queued'`,
      [orgId, id],
    );
    return rows[0] && record(rows[0]);
  }

  /** The organization's commands newest first, every status (a queued one too), as E16 shows them. */
  async list(
    orgId: string,
    q: CommandListQuery,
  ): Promise<{ items: CommandRecord[]; next_offset: number | null }> {
    // Not a uuid: names no deployment, so nothing matches.
    if (q.deploymentId !== undefined && !isUuid(q.deploymentId)) return { items: [], next_offset: null };
    const { rows } = await this.db.query<CommandRecord>(
      `SELECT ${RECORD} FROM evc_commands
       WHERE organization_id = $1 AND ($2::uuid IS NULL OR deployment_id = $2::uuid)
         AND ($3::text IS NULL OR status = $3)
       ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [orgId, q.deploymentId ?? null, q.status ?? null, q.limit + 1, q.offset],
    );
    const more = rows.length > q.limit;
    return { items: rows.slice(0, q.limit).map(record), next_offset: more ? q.offset + q.limit : null };
  }
}
