// Two V8 heuristics that suit a browser tab, not a process booting thousands of chargers:
// - Pretenuring: once most objects of an allocation site survived a scavenge, V8 allocates that
//   site's objects straight in the old generation. In a fleet's boot every charger waits seconds
//   between its events, so the sites of XState's action arguments and of the charger's context
//   copies trip it, and from then on every object they make, the short-lived ones too, is
//   old-generation garbage (a quarter of the boot's sampled allocations).
// - Heap growth: after a full collection V8 lets the old generation grow up to 4x what survived
//   before the next one. A boot that starts after a collection of a small heap then runs to the
//   end without another, holding all its garbage. 2x keeps the peak predictable.
// 10,000 chargers through E7: RSS when the last came online 513-578 MB before, 395-425 MB with
// both; all online in about the same time (docs/loadtest.md, "The boot's garbage").
import { setFlagsFromString } from 'node:v8';

/** Once, at the start of a process that runs chargers, before the first one is created. */
export function tuneHeapForChargers(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
  setFlagsFromString('--heap-growing-percent=100');
}
