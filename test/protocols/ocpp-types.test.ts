// The payload types by version and action: checked by the compiler (npm run typecheck), and at run
// time that nothing imports a value from typed-ocpp but its plain JSON schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { OcppAction, OcppRequest, OcppResponse } from '../../protocols/ocpp/ocpp-types.ts';

type IsAny<T> = 0 extends 1 & T ? true : false;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T => true as T;

test('a request and a response are the version’s own, never any', () => {
  check<Equal<OcppRequest<'ocpp2.0.1', 'SetChargingProfile'>['chargingProfile']['id'], number>>();
  check<Equal<OcppRequest<'ocpp1.6', 'Reset'>['type'], 'Hard' | 'Soft'>>();
  check<Equal<OcppResponse<'ocpp1.6', 'BootNotification'>['status'], 'Accepted' | 'Pending' | 'Rejected'>>();
  check<Equal<IsAny<OcppRequest<'ocpp2.1', 'TransactionEvent'>>, false>>();
  check<Equal<IsAny<OcppResponse<'ocpp2.1', 'TransactionEvent'>>, false>>();
  // Several versions: the union of theirs.
  check<
    Equal<OcppRequest<'ocpp1.6' | 'ocpp2.0.1', 'Reset'>['type'], 'Hard' | 'Soft' | 'Immediate' | 'OnIdle'>
  >();
  // An action the version lacks has no payload.
  check<Equal<OcppRequest<'ocpp1.6', 'RequestStartTransaction'>, never>>();
  check<Equal<'RemoteStartTransaction' extends OcppAction<'ocpp1.6'> ? true : false, true>>();
  check<Equal<'RemoteStartTransaction' extends OcppAction<'ocpp2.0.1'> ? true : false, false>>();
});

test('typed-ocpp gives types, and its plain schemas as values (its index compiles every schema when loaded)', () => {
  const valueImports: string[] = [];
  const re =
    /^\s*(?:import|export)\s+(type\s+)?[^;]*?from\s*['"](typed-ocpp[^'"]*)['"]|import\s*\(\s*['"](typed-ocpp[^'"]*)['"]/gm;
  for (const root of ['protocols', 'actors', 'engine', 'api', 'cli', 'tools'])
    for (const file of sources(root))
      for (const m of readFileSync(file, 'utf8').matchAll(re)) {
        const from = m[2] ?? m[3];
        if (!m[1] && !/^typed-ocpp\/dist\/ocpp\d+\/schemas\.js$/.test(from))
          valueImports.push(`${file}: ${from}`);
      }
  assert.deepEqual(valueImports, []);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js)$/.test(f))
    .map((f) => join(dir, f));
}
