// E7 charger groups: `count` chargers named `{identity_prefix}{number}`, numbered after the highest
// number already in use with that prefix, so posting the same body (a template) again adds new
// chargers instead of colliding with the first ones. Pure: the identities in use are given.
import type { ChargerSpec } from './charger-resolution.ts';

/** A group of chargers alike, as E7's `charger_groups` names it. */
export interface ChargerGroupSpec extends Omit<ChargerSpec, 'identity' | 'charger_name'> {
  count: number;
  identity_prefix: string;
}

/** Numbers have at least this many digits: DEPOT-001, ..., DEPOT-999, DEPOT-1000. */
const MIN_DIGITS = 3;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The highest number used after `prefix` among `identities` (0 when none). */
export function highestNumber(prefix: string, identities: Iterable<string>): number {
  const pattern = new RegExp(`^${escapeRegExp(prefix)}(\\d+)$`);
  let highest = 0;
  for (const identity of identities) {
    const n = Number(pattern.exec(identity)?.[1] ?? 0);
    if (n > highest) highest = n;
  }
  return highest;
}

/**
 * The chargers of the groups, in order. `inUse(prefix)` lists the identities with that prefix that
 * are taken; groups sharing a prefix continue each other's numbering.
 */
export function expandGroups(groups: ChargerGroupSpec[], inUse: (prefix: string) => string[]): ChargerSpec[] {
  const next = new Map<string, number>();
  const out: ChargerSpec[] = [];
  for (const { count, identity_prefix: prefix, ...charger } of groups) {
    let n = next.get(prefix) ?? highestNumber(prefix, inUse(prefix)) + 1;
    for (let i = 0; i < count; i++, n++)
      out.push({ ...charger, identity: prefix + String(n).padStart(MIN_DIGITS, '0') });
    next.set(prefix, n);
  }
  return out;
}
