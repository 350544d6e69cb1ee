// Runs the replay CLI in this process, keeping what it prints (and printing nothing).
import { main } from '../../tools/replay/main.ts';

export async function replayCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  // The CLI writes strings; the test runner's own messages (bytes) go through untouched.
  const keep = (stream: 'stdout' | 'stderr') =>
    ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'string')
        return (write[stream] as (...a: unknown[]) => boolean).call(process[stream], chunk, ...rest);
      out[stream] += chunk;
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = keep('stdout');
  process.stderr.write = keep('stderr');
  try {
    const code = await main(argv);
    return { code, ...out };
  } finally {
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
  }
}
