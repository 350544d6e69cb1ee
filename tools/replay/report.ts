// The replay's report: one line per difference (recorded line, action, field, expected vs got),
// then a summary line; or the same as JSON for a machine.
import { IGNORED_FIELDS } from './compare.ts';
import type { ReplayResult } from './replay-session.ts';

const shown = (v: unknown) => (typeof v === 'string' && v.startsWith('(') ? v : JSON.stringify(v));

export function textReport(file: string, r: ReplayResult): string {
  const lines = r.differences.map(
    (d) =>
      `  ${d.line === null ? 'not recorded' : `line ${d.line}`} ${d.action}: ${d.field}: expected ${shown(d.expected)}, got ${shown(d.got)}`,
  );
  const frames = new Set(r.differences.map((d) => `${d.line}:${d.action}`)).size;
  lines.push(
    `${r.differences.length === 0 ? 'SAME' : 'DIFFERENT'}: ${file} replayed as ${r.identity} (${r.ocpp_version}) against ${r.ws_url}: ` +
      `${r.sent} call(s) sent, ${r.compared} answer(s) compared, ${r.answered} call(s) of the central system answered, ` +
      `${frames} frame(s) differ`,
  );
  return lines.join('\n');
}

export function jsonReport(file: string, r: ReplayResult): string {
  const frames = new Set(r.differences.map((d) => `${d.line}:${d.action}`)).size;
  return JSON.stringify(
    {
      recording: file,
      ...r,
      ignored_fields: IGNORED_FIELDS,
      summary: { differing_frames: frames, differences: r.differences.length },
    },
    null,
    2,
  );
}
