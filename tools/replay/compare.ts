// How a central system's answer is compared with the recorded one. The rules, in order:
//   1. the same message type (CALLRESULT or CALLERROR); for a CALLERROR, the same error code;
//   2. the same value of every `status` field, at any depth (idTagInfo.status, idTokenInfo.status);
//   3. the same set of fields present, at any depth (array elements compared by position);
//   4. the same value of every other field, except those of IGNORED_FIELDS, which differ from one
//      run to the next by nature (times and ids).
// A CALLERROR's description and details are not compared.

/** Fields whose values may differ (their presence still counts): times and ids. */
export const IGNORED_FIELDS: readonly string[] = [
  'currentTime',
  'timestamp',
  'transactionId',
  '*Id (any field whose name ends in Id)',
  '*Date, *DateTime, *Time (any field whose name ends so)',
];

export function isIgnored(name: string): boolean {
  return (
    name === 'currentTime' ||
    name === 'timestamp' ||
    name === 'transactionId' ||
    /(Id|Date|DateTime|Time)$/.test(name)
  );
}

export interface Answer {
  type: 3 | 4;
  /** A CALLRESULT's payload; a CALLERROR's {errorCode, errorDescription, errorDetails}. */
  payload: Record<string, unknown>;
}

export interface FieldDifference {
  /** Dotted path in the payload (`idTagInfo.status`), `type` or `errorCode`. */
  field: string;
  rule: 'type' | 'error_code' | 'status' | 'presence' | 'value';
  expected: unknown;
  got: unknown;
}

const TYPE_NAME = { 3: 'CALLRESULT', 4: 'CALLERROR' } as const;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const ABSENT = '(absent)';

/** The differences between the recorded answer and the one received; empty when they agree. */
export function compareAnswers(expected: Answer, got: Answer): FieldDifference[] {
  if (expected.type !== got.type)
    return [{ field: 'type', rule: 'type', expected: TYPE_NAME[expected.type], got: TYPE_NAME[got.type] }];
  if (expected.type === 4)
    return expected.payload.errorCode === got.payload.errorCode
      ? []
      : [
          {
            field: 'errorCode',
            rule: 'error_code',
            expected: expected.payload.errorCode,
            got: got.payload.errorCode,
          },
        ];
  const out: FieldDifference[] = [];
  walk(expected.payload, got.payload, '', out);
  return out;
}

function walk(e: unknown, g: unknown, path: string, out: FieldDifference[]): void {
  if (isObject(e) && isObject(g)) {
    for (const k of new Set([...Object.keys(e), ...Object.keys(g)])) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in g))
        out.push({ field: p, rule: k === 'status' ? 'status' : 'presence', expected: e[k], got: ABSENT });
      else if (!(k in e))
        out.push({ field: p, rule: k === 'status' ? 'status' : 'presence', expected: ABSENT, got: g[k] });
      else if (k === 'status') {
        if (JSON.stringify(e[k]) !== JSON.stringify(g[k]))
          out.push({ field: p, rule: 'status', expected: e[k], got: g[k] });
      } else if (isIgnored(k) && !isObject(e[k]) && !Array.isArray(e[k])) continue;
      else walk(e[k], g[k], p, out);
    }
    return;
  }
  if (Array.isArray(e) && Array.isArray(g)) {
    for (let i = 0; i < Math.max(e.length, g.length); i++) {
      const p = `${path}[${i}]`;
      if (i >= g.length) out.push({ field: p, rule: 'presence', expected: e[i], got: ABSENT });
      else if (i >= e.length) out.push({ field: p, rule: 'presence', expected: ABSENT, got: g[i] });
      else walk(e[i], g[i], p, out);
    }
    return;
  }
  if (JSON.stringify(e) !== JSON.stringify(g)) out.push({ field: path, rule: 'value', expected: e, got: g });
}
