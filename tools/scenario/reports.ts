// The reports of a scenario run for CI: JUnit XML (one test case per step; a failed step carries
// its message and the frames it saw) and one self-contained HTML page (inline CSS, no script).
import type { RunResult, StepResult } from '../../engine/scenarios/scenario-result.ts';

const xml = (s: string) =>
  // XML 1.0 allows no control characters but tab, newline and carriage return.
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
    );
const html = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const seconds = (s: StepResult) =>
  s.finished_at ? ((Date.parse(s.finished_at) - Date.parse(s.started_at)) / 1000).toFixed(3) : '0';

/** The frames of a step, one JSON line each, prefixed by the charger. */
export const framesText = (s: StepResult) =>
  s.frames.map((f) => `${f.charger} ${JSON.stringify(f.item)}`).join('\n');

export function junitXml(r: RunResult): string {
  const failures = r.steps.filter((s) => s.status === 'failed').length + (r.status === 'error' ? 1 : 0);
  const skipped = r.steps.filter((s) => s.status === 'skipped').length;
  const total = (r.finished_at ? Date.parse(r.finished_at) : Date.now()) - Date.parse(r.started_at);
  const cases = r.steps.map((s) => {
    const head = `    <testcase classname="${xml(r.scenario)}" name="${xml(`${s.path} ${s.name}`)}" time="${seconds(s)}">`;
    const out = s.frames.length ? `\n      <system-out>${xml(framesText(s))}</system-out>` : '';
    if (s.status === 'skipped') return `${head}\n      <skipped message="not reached"/>\n    </testcase>`;
    if (s.status !== 'failed') return `${head}${out}\n    </testcase>`;
    return `${head}\n      <failure message="${xml(s.message ?? 'failed')}" type="${s.expectation ? 'expectation' : 'step'}">${xml(
      `step ${s.path} ${s.name}: ${s.message ?? ''}\n${framesText(s)}`,
    )}</failure>${out}\n    </testcase>`;
  });
  if (r.status === 'error')
    cases.push(
      `    <testcase classname="${xml(r.scenario)}" name="run"><error message="${xml(r.error ?? 'error')}"/></testcase>`,
    );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="evsim scenarios" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${(total / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(r.scenario)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${r.started_at}" time="${(total / 1000).toFixed(3)}">`,
    `    <properties><property name="run_id" value="${r.run_id}"/><property name="seed" value="${r.seed}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const MARK: Record<string, string> = { passed: '✔', done: '·', failed: '✘', running: '…', skipped: '-' };

export function htmlReport(r: RunResult): string {
  const rows = r.steps
    .map(
      (s) =>
        `<tr class="${s.status}"><td>${MARK[s.status]}</td><td>${html(s.path)}</td><td>${html(s.name)}${
          s.message ? `<div class="msg">${html(s.message)}</div>` : ''
        }${
          s.frames.length
            ? `<details${s.status === 'failed' ? ' open' : ''}><summary>${s.frames.length} frame(s)</summary><pre>${html(
                s.frames.map((f) => `${f.charger} ${JSON.stringify(f.item, null, 1)}`).join('\n'),
              )}</pre></details>`
            : ''
        }</td><td>${seconds(s)} s</td></tr>`,
    )
    .join('\n');
  const chargers = r.chargers
    .map((c) => `<li>${html(c.identity)} (${html(c.group)}, ${html(c.ocpp_version)})</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(r.scenario)}: ${r.status}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}.status{padding:.2em .6em;border-radius:4px;color:#fff}
.s-passed{background:#2a7d2e}.s-failed,.s-error{background:#b3261e}.s-running{background:#666}
table{border-collapse:collapse;width:100%}td{border-top:1px solid #ddd;padding:.4em;vertical-align:top}
tr.failed{background:#fdecea}tr.passed td:first-child{color:#2a7d2e}.msg{color:#b3261e;margin-top:.3em}
pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:.5em}
</style></head><body>
<h1>${html(r.scenario)} <span class="status s-${r.status}">${r.status}</span></h1>
<p>Run ${html(r.run_id)}, seed ${r.seed}, ${html(r.started_at)} to ${html(r.finished_at ?? '…')};
expectations: ${r.expectations.passed} passed, ${r.expectations.failed} failed.${r.error ? ` Error: ${html(r.error)}` : ''}</p>
<ul>${chargers}</ul>
<table><tbody>
${rows}
</tbody></table>
</body></html>
`;
}

/** One progress line of a finished step, as the CLI prints it. */
export function progressLine(s: StepResult): string {
  const line = `  ${MARK[s.status]} ${s.path} ${s.name} (${seconds(s)} s)`;
  if (s.status !== 'failed') return line;
  return `${line}\n      ${s.message ?? ''}${s.frames.length ? '\n' + framesText(s).replace(/^/gm, '      ') : ''}`;
}
