// The reports of a suite: JUnit XML (one <testsuite> per profile, one <testcase> per case named
// `<test-case id> <title>`; not applicable and blocked cases <skipped>), the summary table the
// CLI prints, and one self-contained HTML page.
import type { CaseResult, SuiteResult } from '../../engine/conformance/suite-result.ts';
import { framesText } from './reports.ts';

const xml = (s: string) =>
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
    );
const html = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const secondsOf = (c: CaseResult) =>
  c.run?.finished_at
    ? ((Date.parse(c.run.finished_at) - Date.parse(c.run.started_at)) / 1000).toFixed(3)
    : '0';

/** The cases by profile, in the order profiles first appear. */
function byProfile(r: SuiteResult): Map<string, CaseResult[]> {
  const out = new Map<string, CaseResult[]>();
  for (const c of r.cases) out.set(c.profile, [...(out.get(c.profile) ?? []), c]);
  return out;
}

/** The failed step's frames (what the central system sent or answered), for the failure text. */
const failedFrames = (c: CaseResult) => {
  const s = c.run?.steps.find((x) => x.status === 'failed');
  return s ? framesText(s) : '';
};

export function suiteJunit(r: SuiteResult): string {
  const suites = [...byProfile(r)].map(([profile, cases]) => {
    const failures = cases.filter((c) => c.verdict === 'failed').length;
    const skipped = cases.filter((c) => c.verdict === 'not applicable' || c.verdict === 'blocked').length;
    const time = cases.reduce((t, c) => t + Number(secondsOf(c)), 0).toFixed(3);
    const rows = cases.map((c) => {
      const head = `    <testcase classname="${xml(profile)}" name="${xml(`${c.id} ${c.title}`)}" time="${secondsOf(c)}">`;
      const props = c.requirements.length
        ? `\n      <properties><property name="requirements" value="${xml(c.requirements.join(' '))}"/></properties>`
        : '';
      const warn = c.warnings.length
        ? `\n      <system-err>${xml(c.warnings.map((w) => `warning: ${w}`).join('\n'))}</system-err>`
        : '';
      let body = '';
      if (c.verdict === 'not applicable') body = `\n      <skipped message="not applicable"/>`;
      else if (c.verdict === 'blocked') body = `\n      <skipped message="${xml(c.message ?? 'blocked')}"/>`;
      else if (c.verdict === 'failed')
        body = `\n      <failure message="${xml(c.message ?? 'failed')}" type="${xml(c.requirements.join(' ') || 'failed')}">${xml(
          `${c.file}\nrequirements: ${c.requirements.join(', ') || '-'}\n${c.message ?? ''}\n${failedFrames(c)}`,
        )}</failure>`;
      return `${head}${props}${body}${warn}\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(profile)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${r.started_at}" time="${time}">`,
      ...rows,
      '  </testsuite>',
    ].join('\n');
  });
  const count = (v: string) => r.cases.filter((c) => c.verdict === v).length;
  const total = r.finished_at ? (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000 : 0;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(r.name)}" tests="${r.cases.length}" failures="${count('failed')}" skipped="${count('not applicable') + count('blocked')}" time="${total.toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

const VERDICTS = ['passed', 'failed', 'blocked', 'not applicable'] as const;

/** The table the CLI prints: a row per profile with its counts, then a line per case not passed. */
export function summaryTable(r: SuiteResult): string {
  const rows = [...byProfile(r)].map(([profile, cases]) => [
    profile,
    String(cases.length),
    ...VERDICTS.map((v) => String(cases.filter((c) => c.verdict === v).length)),
    String(cases.reduce((n, c) => n + c.warnings.length, 0)),
  ]);
  const head = ['profile', 'cases', ...VERDICTS, 'warnings'];
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const notPassed = r.cases
    // Not applicable cases are counted in the table only: a profile not claimed is no news.
    .filter((c) => c.verdict !== 'passed' && c.verdict !== 'not applicable')
    .map((c) => `  ${c.verdict.toUpperCase()} ${c.id} ${c.title}${c.message ? `\n      ${c.message}` : ''}`);
  const warnings = r.cases.flatMap((c) => c.warnings.map((w) => `  WARNING ${c.id}: ${w}`));
  return [line(head), ...rows.map(line), ...notPassed, ...warnings].join('\n');
}

const MARK: Record<string, string> = { passed: '✔', failed: '✘', blocked: '⊘', 'not applicable': '–' };

/** One line per finished case, as the CLI prints them. */
export const caseLine = (c: CaseResult) =>
  `  ${MARK[c.verdict] ?? '…'} ${c.id} ${c.title} (${c.verdict}${c.warnings.length ? `, ${c.warnings.length} warning(s)` : ''})`;

export function suiteHtml(r: SuiteResult): string {
  const rows = r.cases
    .map(
      (c) =>
        `<tr class="${c.verdict.replace(' ', '-')}"><td>${MARK[c.verdict] ?? ''}</td><td>${html(c.id)}</td><td>${html(c.title)}${
          c.message ? `<div class="msg">${html(c.message)}</div>` : ''
        }${c.warnings.map((w) => `<div class="warn">warning: ${html(w)}</div>`).join('')}${
          c.verdict === 'failed'
            ? `<details open><summary>frames</summary><pre>${html(failedFrames(c))}</pre></details>`
            : ''
        }</td><td>${html(c.profile)}</td><td>${html(c.requirements.join(', '))}</td><td>${html(c.verdict)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(r.name)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}
td{border-top:1px solid #ddd;padding:.4em;vertical-align:top}tr.failed{background:#fdecea}
tr.blocked{background:#fff4e5}tr.not-applicable{color:#777}.msg{color:#b3261e}.warn{color:#8a5a00}
pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:.5em}
</style></head><body>
<h1>${html(r.name)}</h1>
<pre>${html(summaryTable(r))}</pre>
<table><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
