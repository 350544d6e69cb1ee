// Background jobs follow their node like charger leases (docs/operations.md "Several nodes"): a
// location job whose API node died is taken over by a live API node where its progress was; a job
// of a live node is left to it. The dead and the live other node are presence rows of this database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, startTestService, type TestService } from '../support/service.ts';
import { startStrictCsms, type StrictCsms } from '../support/strict-csms.ts';
import { DUAL_MODEL, eventually } from '../deployments/deployment-helpers.ts';

const ORG = 'org-job-takeover';

describe(`background jobs follow their node (${MODE})`, () => {
  let svc: TestService;
  let csms: StrictCsms;
  /** A location's job target as E7 stored it, to write jobs of other nodes from. */
  let template: Record<string, unknown>;

  const db = () => svc.service.platform.db;
  const presence = (node: string, seconds: number) =>
    db().query(
      `INSERT INTO evc_nodes (node_id, run, role, engine, heartbeat_at, expires_at, chargers)
       VALUES ($1, 'r1', 'api', false, now(), now() + make_interval(secs => $2), 0)`,
      [node, seconds],
    );
  /** A location and its unfinished deployment job, held by `node`. */
  async function jobOf(node: string, identities: string[]): Promise<{ location: string; job: string }> {
    const { rows: loc } = await db().query<{ id: string }>(
      `INSERT INTO evc_locations (organization_id, name, body) VALUES ($1, $2, '{}'::jsonb) RETURNING id::text AS id`,
      [ORG, `left by ${node}`],
    );
    const targets = identities.map((identity) => ({ ...template, identity }));
    const { rows: job } = await db().query<{ id: string }>(
      `INSERT INTO evc_jobs (organization_id, kind, location_id, targets, node_id)
       VALUES ($1, 'deploy_location', $2::uuid, $3::jsonb, $4) RETURNING id::text AS id`,
      [ORG, loc[0].id, JSON.stringify(targets), node],
    );
    return { location: loc[0].id, job: job[0].id };
  }
  const jobRow = async (id: string) =>
    (
      await db().query<{ node_id: string; done: number; finished: boolean }>(
        'SELECT node_id, done, finished_at IS NOT NULL AS finished FROM evc_jobs WHERE id = $1',
        [id],
      )
    ).rows[0];

  before(async () => {
    csms = await startStrictCsms();
    // A short TTL: ticks every second, so a node's death is seen within a few seconds.
    svc = await startTestService({ env: { NODE_ID: 'jobs-live', LEASE_TTL_SECONDS: '3' } });
    const res = await svc.as(ORG)('POST', '/evcharger/location', {
      body: {
        name: 'template',
        chargers: [{ identity: 'JOBS-T0', model: DUAL_MODEL, ws_url: csms.url, ocpp_version: 'ocpp1.6' }],
      },
    });
    assert.equal(res.status, 202, res.text);
    const { rows } = await eventually(
      () =>
        db().query<{ targets: Array<Record<string, unknown>>; finished: boolean }>(
          'SELECT targets, finished_at IS NOT NULL AS finished FROM evc_jobs WHERE location_id = $1',
          [res.body.location_id],
        ),
      (r) => r.rows[0]?.finished === true,
    );
    template = rows[0].targets[0];
  });
  after(async () => {
    await svc?.close();
    await csms?.close();
  });

  test('a location job whose node died is taken over and finished by a live API node', async () => {
    await presence('jobs-dead', 3);
    const { job } = await jobOf('jobs-dead', ['JOBS-1', 'JOBS-2', 'JOBS-3']);
    // Held by a live node: nobody takes it yet.
    assert.equal(await svc.service.deps.deployments.service.runner.resume(), 0);
    assert.equal((await jobRow(job)).node_id, 'jobs-dead');
    // Its presence lapses: the live node sees it gone and runs the job.
    await eventually(
      async () => ['JOBS-1', 'JOBS-2', 'JOBS-3'].filter((id) => csms.clients.has(id)).length,
      (n) => n === 3,
      20_000,
    );
    assert.deepEqual(
      await eventually(
        () => jobRow(job),
        (r) => r.finished,
      ),
      {
        node_id: 'jobs-live',
        done: 3,
        finished: true,
      },
    );
  });

  test('a job of another live node is left to it', async () => {
    await presence('jobs-other', 3600);
    const { job } = await jobOf('jobs-other', ['JOBS-9']);
    assert.equal(await svc.service.deps.deployments.service.runner.resume(), 0);
    assert.deepEqual(await jobRow(job), { node_id: 'jobs-other', done: 0, finished: false });
    assert.equal(csms.clients.has('JOBS-9'), false);
  });
});
