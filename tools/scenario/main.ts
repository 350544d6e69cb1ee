// The scenario CLI a CI job calls: runs one scenario document against a central system and exits
// 0 only when every expectation held (1: one failed, 2: the run could not be carried out, or bad
// options). By default it starts the service in this process (embedded database and broker in a
// temporary directory) and runs the scenario there, like any client of the engine; with --api it
// runs it on a running service instead. Progress goes to the terminal; reports to the given files.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunEvent, RunResult } from '../../engine/scenarios/scenario-result.ts';
import { USAGE, parseOptions, type ScenarioCliOptions } from './options.ts';
import { withInProcessService } from './in-process.ts';
import { htmlReport, junitXml, progressLine } from './reports.ts';
import { runSuiteCli } from './suite-main.ts';
import { runViaApi } from './via-api.ts';

const out = (line: string) => process.stdout.write(line + '\n');

export interface MainOptions {
  /** How often a step still running says so (default 10 s). */
  stillWaitingEveryMs?: number;
}

/**
 * The progress printer: chargers as they are deployed, each step once it ends, and while a step
 * runs (a wait, an expectation), a line every `everyMs` saying it is still waiting.
 */
export function progress(everyMs = 10_000): { onEvent: (e: RunEvent) => void; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const onEvent = (e: RunEvent) => {
    if (e.type === 'charger')
      out(`  + ${e.charger.identity} (${e.charger.ocpp_version}, ${e.charger.group})`);
    else if (e.type === 'prompt') out(`  ? ${e.charger}: ${e.prompt}`);
    else if (e.type === 'step') {
      stop();
      if (e.step.status !== 'running') return out(progressLine(e.step));
      const { path, name, started_at } = e.step;
      timer = setInterval(() => {
        const s = Math.round((Date.now() - Date.parse(started_at)) / 1000);
        out(`  … ${path} ${name}: still waiting (${s} s)`);
      }, everyMs);
      timer.unref();
    } else stop();
  };
  return { onEvent, stop };
}

/** Starts the service in this process (embedded database and broker, a temporary directory) and runs there. */
function runInProcess(
  o: ScenarioCliOptions,
  text: string,
  onEvent: (e: RunEvent) => void,
): Promise<RunResult | string> {
  return withInProcessService((api) => runViaApi({ ...o, api }, text, onEvent, false));
}

/**
 * The last line: the verdict, the step that failed, expectations held and steps failed (a wait
 * that ran out of time or an action that could not be carried out counts as failed too).
 */
export function summaryLine(r: RunResult): string {
  const failedSteps = r.steps.filter((s) => s.status === 'failed');
  const failed = r.expectations.failed + failedSteps.filter((s) => !s.expectation).length;
  const where = failedSteps.length ? ` at step ${failedSteps[0].path} ${failedSteps[0].name}` : '';
  return (
    `${r.status.toUpperCase()}${where}: ${r.expectations.passed} expectation(s) held, ${failed} failed (run ${r.run_id}, seed ${r.seed})` +
    (r.error ? `\n  error: ${r.error}` : '')
  );
}

export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  let o: ScenarioCliOptions;
  let text: string;
  // Asked for: the usage on stdout and success (without a FILE it is bad input: stderr, exit 2).
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    o = parseOptions(argv);
    if (o.suite !== undefined) return await runSuiteCli(o);
    text = readFileSync(o.file, 'utf8');
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  let result: RunResult | string;
  const shown = progress(options.stillWaitingEveryMs);
  try {
    result = o.api ? await runViaApi(o, text, shown.onEvent) : await runInProcess(o, text, shown.onEvent);
  } catch (err) {
    // The run could not be carried out (a refused token, a service out of reach): one line, no stack.
    process.stderr.write(`${o.file}: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  } finally {
    shown.stop();
  }
  if (typeof result === 'string') {
    process.stderr.write(`${o.file}: not a valid scenario\n${result}\n`);
    return 2;
  }
  if (o.junit) writeFileSync(o.junit, junitXml(result));
  if (o.html) writeFileSync(o.html, htmlReport(result));
  if (o.json) writeFileSync(o.json, JSON.stringify(result, null, 2) + '\n');
  out(summaryLine(result));
  return result.status === 'passed' ? 0 : result.status === 'failed' ? 1 : 2;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(2);
    },
  );
