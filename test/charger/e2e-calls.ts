// Every CSMS call of the spec answered end to end, one behaviour per test, each on its own charger
// (see e2e-suite.ts): the cases of each version are in charger-e2e-calls-<version>.test.ts. What a
// call does in detail is specified by the block tests in test/actors.
import { test } from 'node:test';
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import { e2eSuite, type E2e } from './e2e-suite.ts';
import type { TrackedCharger } from './tracked-charger.ts';

/** One behaviour: runs against a fresh online charger `id`. */
export type Case = [name: string, run: (e: E2e, id: string, c: TrackedCharger) => Promise<void>];

/** The StatusNotification a TriggerMessage caused, sent after its answer. */
export const triggered = (e: E2e, id: string) =>
  e
    .csms()
    .waitFor(() => e.answerAndAfter(id, 'TriggerMessage').later.find((f) => f[2] === 'StatusNotification'));

/** One suite of a version's cases, each on a fresh online charger. */
export function callSuite(version: OcppVersion, cases: Case[]): void {
  e2eSuite(version, 'every CSMS call of the spec', (e) => {
    cases.forEach(([name, run], n) =>
      test(name, async () => {
        const id = `${e.tag}-CALL-${n + 1}`;
        const c = e.deploy(id);
        await e.online(c);
        await run(e, id, c);
      }),
    );
  });
}
