// Shared by the command tests: deploying a charger against a central system and waiting for it,
// sending a command, and polling E16 until the command is final.
import assert from 'node:assert/strict';
import type { As } from '../deployments/deployment-helpers.ts';
import { DUAL_MODEL, eventsOf, eventually } from '../deployments/deployment-helpers.ts';

export const FINAL = ['completed', 'rejected', 'failed', 'timed_out', 'interrupted'];

export interface CommandRecord {
  id: string;
  charger_id: string;
  identity: string;
  event_type: string;
  status: string;
  payload: any;
  response: any;
  error: { code: string; description?: string } | null;
  created_at: string;
  received_at: string | null;
  completed_at: string | null;
}

/** E5 a charger at wsUrl and wait until E10 reports it online; returns its deployment id. */
export async function deployOnline(
  as: As,
  identity: string,
  version: 'ocpp1.6' | 'ocpp2.0.1',
  wsUrl: string,
): Promise<string> {
  const res = await as('POST', '/evcharger/deployment', {
    body: { identity, model: DUAL_MODEL, ws_url: wsUrl, ocpp_version: version },
  });
  assert.equal(res.status, 201, res.text);
  await eventually(
    () => eventsOf(as, identity),
    (events) => events.some((e) => e.stage === 'online'),
  );
  return res.body.deployment_id;
}

/** POST a command; asserts the 202 and returns the one queued command id. */
export async function sendOne(as: As, path: string, body: unknown): Promise<string> {
  const res = await as('POST', `/evcharger/commands/${path}`, { body });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.queued_count, 1, res.text);
  return res.body.results[0].command.id;
}

/** Polls E16 until the command is final. */
export function finalOf(as: As, id: string, timeoutMs = 15_000): Promise<CommandRecord> {
  return eventually(
    async () => {
      const res = await as<CommandRecord>('GET', `/evcharger/commands/${id}`);
      return res.status === 200 ? res.body : undefined;
    },
    (r): r is CommandRecord => !!r && FINAL.includes(r.status),
    timeoutMs,
  ) as Promise<CommandRecord>;
}

/** Sends a command and waits for its final record. */
export async function run(as: As, path: string, body: unknown): Promise<CommandRecord> {
  return finalOf(as, await sendOne(as, path, body));
}
