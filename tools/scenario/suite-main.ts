// `npm run scenario -- --suite FILE|DIR`: loads every case (checked against the schema before
// anything runs), starts the service in this process and runs each case there through its API
// (POST /scenario-runs, several at once), prints a line per case and the summary table, writes
// the reports. Exit 0 only when no case failed (1: one failed, 2: the suite could not be run).
import { writeFileSync } from 'node:fs';
import { runCases, type SuiteResult } from '../../engine/conformance/suite-result.ts';
import { withInProcessService } from './in-process.ts';
import { loadSuite } from './load-suite.ts';
import type { ScenarioCliOptions } from './options.ts';
import { caseLine, suiteHtml, suiteJunit, summaryTable } from './suite-reports.ts';
import { runViaApi } from './via-api.ts';

const out = (line: string) => process.stdout.write(line + '\n');

export async function runSuiteCli(o: ScenarioCliOptions): Promise<number> {
  let suite: ReturnType<typeof loadSuite>;
  try {
    suite = loadSuite(o.suite!);
  } catch (err) {
    process.stderr.write(`${o.suite}: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  }
  if ('problems' in suite) {
    process.stderr.write(`${o.suite}: not a suite that can run\n${suite.problems.join('\n')}\n`);
    return 2;
  }
  const profiles = o.profiles ?? suite.profiles;
  out(
    `${suite.name}: ${suite.cases.length} case(s)${profiles ? `, profiles claimed: ${profiles.join(', ')}` : ''}`,
  );
  let result: SuiteResult;
  try {
    result = await withInProcessService((api) =>
      runCases(
        {
          name: suite.name,
          cases: suite.cases,
          profiles,
          concurrency: o.concurrency ?? suite.concurrency,
          onCase: (c) => {
            if (c.verdict !== 'running' && c.verdict !== 'pending') out(caseLine(c));
          },
        },
        // A document the service refuses (a variable no one gives, a csms_call without a hook)
        // comes back as its problems: the case is blocked, with them.
        (c) => runViaApi({ ...o, api }, c.text!, () => undefined, false, true),
      ),
    );
  } catch (err) {
    process.stderr.write(`${o.suite}: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  }
  if (o.junit) writeFileSync(o.junit, suiteJunit(result));
  if (o.html) writeFileSync(o.html, suiteHtml(result));
  if (o.json) writeFileSync(o.json, JSON.stringify(result, null, 2) + '\n');
  const seconds = (Date.parse(result.finished_at!) - Date.parse(result.started_at)) / 1000;
  const failed = result.cases.some((c) => c.verdict === 'failed');
  out(summaryTable(result));
  out(`${failed ? 'FAILED' : 'PASSED'} in ${seconds.toFixed(1)} s`);
  return failed ? 1 : 0;
}
