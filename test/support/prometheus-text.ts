// A strict parser of the Prometheus text exposition format 0.0.4, for tests of GET /metrics: it
// refuses what a Prometheus server would refuse (bad names, bad escapes, bad values, a sample
// before its TYPE or of no declared family, a family's samples split up, a series twice) and
// checks each histogram (`le` ascending, cumulative counts that never go down, `+Inf` = `_count`).
//
//   const m = parsePrometheus(text);
//   m.value('evsim_csms_boot_answers_total', { version: 'ocpp1.6', status: 'Pending' })  // 3
//   histogramQuantile(0.5, m.buckets('evsim_csms_answer_seconds', { action: 'Authorize' }))
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help?: string;
  samples: Sample[];
}

export interface Exposition {
  families: Map<string, Family>;
  /** Samples named `name` whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): Sample[];
  /** The value of the one sample named `name` with exactly these labels (undefined: none). */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** A histogram's buckets of the series whose labels include `labels` (summed), as [le, count]. */
  buckets(name: string, labels?: Record<string, string>): Array<[number, number]>;
}

function parseValue(text: string, where: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: bad value '${text}'`);
  return Number(text);
}

/** `{a="x",b="y"}` from position 0 of `text`: the labels and the position after the brace. */
function parseLabels(text: string, where: string): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === '}') return [labels, i + 1];
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`${where}: label without '='`);
    const name = text.slice(i, eq).trim();
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: bad label name '${name}'`);
    if (name in labels) throw new Error(`${where}: label '${name}' twice`);
    if (text[eq + 1] !== '"') throw new Error(`${where}: label value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === '\\') value += '\\';
        else if (next === '"') value += '"';
        else if (next === 'n') value += '\n';
        else throw new Error(`${where}: bad escape '\\${next}'`);
      } else value += text[j];
    }
    if (j >= text.length) throw new Error(`${where}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`${where}: expected ',' or '}' after a label`);
  }
}

/** The family a sample belongs to: itself, or a histogram / summary of which it is a part. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const own = families.get(name);
  if (own) return own;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  const parent = m ? families.get(m[1]) : undefined;
  if (!parent) return undefined;
  if (parent.type === 'histogram' || (parent.type === 'summary' && m![2] !== 'bucket')) return parent;
  return undefined;
}

const includes = (labels: Record<string, string>, want: Record<string, string>) =>
  Object.entries(want).every(([k, v]) => labels[k] === v);

export function parsePrometheus(text: string): Exposition {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const families = new Map<string, Family>();
  const finished = new Set<string>();
  const seen = new Set<string>();
  let current: Family | undefined;
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((line, n) => {
    const where = `line ${n + 1}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!m) return; // a comment
      const [, kind, name, rest = ''] = m;
      if (!NAME.test(name)) throw new Error(`${where}: bad metric name '${name}'`);
      let family = families.get(name);
      if (family && (finished.has(name) || family.samples.length > 0) && current !== family)
        throw new Error(`${where}: ${kind} of '${name}' after its samples`);
      if (!family) families.set(name, (family = { name, type: 'untyped', samples: [] }));
      if (current && current !== family) finished.add(current.name);
      current = family;
      if (kind === 'TYPE') {
        if (!TYPES.includes(rest)) throw new Error(`${where}: bad type '${rest}'`);
        if (family.samples.length > 0) throw new Error(`${where}: TYPE of '${name}' after its samples`);
        family.type = rest;
      } else {
        if (family.help !== undefined) throw new Error(`${where}: HELP of '${name}' twice`);
        family.help = rest;
      }
      return;
    }
    const nameEnd = line.search(/[{\s]/);
    if (nameEnd <= 0) throw new Error(`${where}: no value`);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`${where}: bad metric name '${name}'`);
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith('{')) {
      const [parsed, end] = parseLabels(rest, where);
      labels = parsed;
      rest = rest.slice(end);
    }
    const parts = rest.trim().split(/\s+/);
    if (!/^\s/.test(rest) || parts.length < 1 || parts.length > 2)
      throw new Error(`${where}: bad sample '${line}'`);
    const value = parseValue(parts[0], where);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`${where}: bad timestamp`);
    const family = familyOf(name, families);
    if (!family) throw new Error(`${where}: '${name}' has no TYPE or HELP before it`);
    if (family !== current) throw new Error(`${where}: the samples of '${family.name}' are split up`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`${where}: series ${key} twice`);
    seen.add(key);
    if (family.type === 'histogram' && name === `${family.name}_bucket` && labels.le === undefined)
      throw new Error(`${where}: a bucket without 'le'`);
    if (family.type === 'counter' && !(value >= 0)) throw new Error(`${where}: a counter below zero`);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);

  const samples = (name: string, want: Record<string, string> = {}) =>
    [...families.values()].flatMap((f) =>
      f.samples.filter((s) => s.name === name && includes(s.labels, want)),
    );
  return {
    families,
    samples,
    value(name, want = {}) {
      const found = samples(name, want).filter(
        (s) => Object.keys(s.labels).length === Object.keys(want).length,
      );
      if (found.length > 1) throw new Error(`${name}: several series match`);
      return found[0]?.value;
    },
    buckets(name, want = {}) {
      const sums = new Map<number, number>();
      for (const s of samples(`${name}_bucket`, want)) {
        const le = parseValue(s.labels.le, name);
        sums.set(le, (sums.get(le) ?? 0) + s.value);
      }
      return [...sums].sort((a, b) => a[0] - b[0]);
    },
  };
}

/** Each series of a histogram: `le` ascending, cumulative, ending with +Inf equal to `_count`. */
function checkHistogram(family: Family): void {
  const series = new Map<string, Sample[]>();
  const counts = new Map<string, number>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    if (s.name.endsWith('_bucket')) series.set(key, [...(series.get(key) ?? []), { ...s, labels: { le } }]);
    else if (s.name.endsWith('_count')) counts.set(key, s.value);
  }
  for (const [key, buckets] of series) {
    let le = -Infinity;
    let count = 0;
    for (const b of buckets) {
      const at = parseValue(b.labels.le, family.name);
      if (!(at > le)) throw new Error(`${family.name}${key}: le not ascending`);
      if (b.value < count) throw new Error(`${family.name}${key}: bucket counts go down`);
      le = at;
      count = b.value;
    }
    if (le !== Infinity) throw new Error(`${family.name}${key}: no +Inf bucket`);
    if (counts.get(key) !== count) throw new Error(`${family.name}${key}: +Inf bucket is not _count`);
  }
}

/** As PromQL's histogram_quantile: linear within the bucket holding the rank. */
export function histogramQuantile(q: number, buckets: Array<[number, number]>): number {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return NaN;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return lower;
      return lower + ((le - lower) * (rank - below)) / (count - below);
    }
    lower = le;
    below = count;
  }
  return lower;
}
