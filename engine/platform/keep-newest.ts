// Runs kept in a process's memory (scenario runs, traffic runs) are bounded per organization:
// once over the limit, the oldest of the ended ones leave.

/** Deletes the oldest entries (a Map iterates in insertion order) that `ended` picks, beyond `keep`. */
export function dropOldestEnded<K, V>(runs: Map<K, V>, ended: (run: V) => boolean, keep: number): void {
  const picked = [...runs].filter(([, run]) => ended(run));
  for (const [id] of picked.slice(0, Math.max(0, picked.length - keep))) runs.delete(id);
}
