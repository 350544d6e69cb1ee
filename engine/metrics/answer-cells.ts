// One "cell" of answer-time figures: a histogram of answer times plus count, sum, min, max,
// CALLERRORs and timeouts, in one Float64Array so recording an answer is a few index bumps and
// no allocation. The buckets are those of /metrics: from 5 ms to 60 s, four per doubling (a bucket
// is at most 19 % wider than the one before it), so a percentile read from them is within a few
// percent of the true one.
//
//   const cell = newCell();
//   recordAnswer(cell, 302.5);          // ms
//   percentile(cell, 0.5)               // ~302 (interpolated in its bucket, clamped to min..max)

/** Upper bounds of the buckets in ms: 5 ms * 2^(k/4), 3 significant digits, then 60 s. */
export const BUCKET_BOUNDS_MS: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let k = 0; ; k++) {
    const ms = Number((5 * 2 ** (k / 4)).toPrecision(3));
    if (ms >= 60_000) break;
    bounds.push(ms);
  }
  bounds.push(60_000);
  return bounds;
})();

/** Finite buckets, then one for answers later than 60 s (+Inf). */
export const BUCKETS = BUCKET_BOUNDS_MS.length + 1;
export const N = BUCKETS; // answers (CALLRESULT or CALLERROR) in the cell
export const SUM = BUCKETS + 1; // their answer times, ms
export const MIN = BUCKETS + 2;
export const MAX = BUCKETS + 3;
export const ERRORS = BUCKETS + 4; // CALLERRORs among the answers
export const TIMEOUTS = BUCKETS + 5; // CALLs not answered within the call timeout (not in the histogram)
export const CELL = BUCKETS + 6;

export type Cell = Float64Array;

export const newCell = (): Cell => new Float64Array(CELL);

/** The bucket of an answer time (ms): the first whose upper bound is at least `ms`. */
export function bucketOf(ms: number): number {
  if (!(ms > BUCKET_BOUNDS_MS[0])) return 0;
  if (ms > 60_000) return BUCKETS - 1;
  // A first guess from the geometry, corrected for the rounding of the bounds.
  let i = Math.min(BUCKETS - 2, Math.ceil(4 * Math.log2(ms / 5)));
  while (BUCKET_BOUNDS_MS[i] < ms) i++;
  while (i > 0 && BUCKET_BOUNDS_MS[i - 1] >= ms) i--;
  return i;
}

/** An answer (CALLRESULT, or CALLERROR when `error`) `ms` after the CALL was written. */
export function recordAnswer(cell: Cell, ms: number, error = false): void {
  cell[bucketOf(ms)]++;
  if (cell[N] === 0 || ms < cell[MIN]) cell[MIN] = ms;
  if (ms > cell[MAX]) cell[MAX] = ms;
  cell[N]++;
  cell[SUM] += ms;
  if (error) cell[ERRORS]++;
}

export function recordTimeout(cell: Cell): void {
  cell[TIMEOUTS]++;
}

/** Adds `from` into `into`. */
export function addCell(into: Cell, from: Cell): void {
  if (from[N] === 0 && from[TIMEOUTS] === 0) return;
  const min = into[N] === 0 ? from[MIN] : from[N] === 0 ? into[MIN] : Math.min(into[MIN], from[MIN]);
  const max = Math.max(into[MAX], from[MAX]);
  for (let i = 0; i < CELL; i++) into[i] += from[i];
  into[MIN] = min;
  into[MAX] = max;
}

/**
 * The q-quantile of the answer times (ms), linear within its bucket (as Prometheus's
 * histogram_quantile), clamped to the cell's min and max; null when it holds no answer.
 */
export function percentile(cell: Cell, q: number): number | null {
  const n = cell[N];
  if (n === 0) return null;
  const rank = q * n;
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const c = cell[i];
    if (c === 0 || seen + c < rank) {
      seen += c;
      continue;
    }
    // Within the bucket, between what was seen: a bucket is 19 % wide, but when every answer
    // fell in one, the fastest and slowest bound the estimate far closer.
    const lower = Math.max(i === 0 ? 0 : BUCKET_BOUNDS_MS[i - 1], cell[MIN]);
    const upper = Math.min(i === BUCKETS - 1 ? cell[MAX] : BUCKET_BOUNDS_MS[i], cell[MAX]);
    const at = lower + ((upper - lower) * (rank - seen)) / c;
    return Math.min(cell[MAX], Math.max(cell[MIN], at));
  }
  return cell[MAX];
}

/**
 * A cell as JSON (the node's row in the database): N, SUM, MIN, MAX, ERRORS, TIMEOUTS, then the
 * non-empty buckets as index, count pairs.
 */
export function encodeCell(cell: Cell): number[] {
  const out = [cell[N], cell[SUM], cell[MIN], cell[MAX], cell[ERRORS], cell[TIMEOUTS]];
  for (let i = 0; i < BUCKETS; i++) if (cell[i] !== 0) out.push(i, cell[i]);
  return out;
}

/** Adds an encoded cell into `into`; anything malformed is skipped (a row of another version). */
export function addEncoded(into: Cell, encoded: unknown): void {
  if (!Array.isArray(encoded) || encoded.length < 6 || !encoded.every((x) => typeof x === 'number')) return;
  const from = newCell();
  [from[N], from[SUM], from[MIN], from[MAX], from[ERRORS], from[TIMEOUTS]] = encoded as number[];
  for (let j = 6; j + 1 < encoded.length; j += 2) {
    const i = encoded[j] as number;
    if (Number.isInteger(i) && i >= 0 && i < BUCKETS) from[i] += encoded[j + 1] as number;
  }
  addCell(into, from);
}
