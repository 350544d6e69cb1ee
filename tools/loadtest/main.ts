// `npm run loadtest -- [options]`: thousands of virtual chargers against a central system, with a
// live progress line, a summary table and JSON + HTML reports. See the README, "Load tests".
import { parseLoadtestOptions, USAGE, UsageError } from './options.ts';
import { summaryText } from './report-text.ts';
import { reportPaths, runLoadtest, writeReports } from './run.ts';
import { tuneHeapForChargers } from '../../engine/platform/heap-tuning.ts';

async function main(): Promise<void> {
  let options;
  try {
    options = parseLoadtestOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  // The chargers run here (or in --nodes children) as in the service, with its heap tuning.
  tuneHeapForChargers();
  const report = await runLoadtest(options, process.stderr);
  const paths = reportPaths(options.reportFile);
  writeReports(report, paths);
  console.log(`\n${summaryText(report)}\n`);
  console.log(`Reports: ${paths.json}, ${paths.html}`);
  // Sockets and timers of 25k chargers take a while to unwind; the work is done.
  process.exit(report.checks.every((c) => c.ok) ? 0 : 1);
}

await main();
