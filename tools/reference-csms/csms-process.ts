// Runs the reference central system in its own process, so the engine under load has its cores,
// heap and RSS to itself: the load test's memory and CPU figures are the chargers' alone.
// The parent talks to it over the IPC channel of child_process.fork.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startReferenceCsms, type ReferenceCsmsOptions, type ReferenceCsmsStats } from './reference-csms.ts';

export interface CsmsProcess {
  url: string;
  pid: number;
  stats(): Promise<ReferenceCsmsStats>;
  close(): Promise<void>;
}

type Request = { type: 'stats' } | { type: 'close' };
type Reply =
  | { type: 'ready'; url: string }
  | { type: 'failed'; message: string }
  | { type: 'stats'; stats: ReferenceCsmsStats }
  | { type: 'closed' };

export async function spawnCsmsProcess(opts: ReferenceCsmsOptions = {}): Promise<CsmsProcess> {
  const self = fileURLToPath(import.meta.url);
  const child: ChildProcess = fork(self, [JSON.stringify(opts)], {
    // Run from source through tsx, or from the tsc build (dist/) as plain JavaScript.
    execArgv: self.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: Reply['type']) =>
    new Promise<Reply>((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        if (reply.type === 'failed') reject(new Error(`reference central system: ${reply.message}`));
        if (reply.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`the reference central system exited (code ${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = (await next('ready')) as Extract<Reply, { type: 'ready' }>;
  const ask = (request: Request, answer: Reply['type']) => {
    const reply = next(answer);
    child.send(request);
    return reply;
  };
  return {
    url: ready.url,
    pid: child.pid!,
    stats: async () => ((await ask({ type: 'stats' }, 'stats')) as Extract<Reply, { type: 'stats' }>).stats,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' } satisfies Request);
      await exited;
    },
  };
}

// The child: start the central system, answer the parent, leave when told (or orphaned).
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const send = process.send.bind(process);
  const options = JSON.parse(process.argv[2] ?? '{}') as ReferenceCsmsOptions;
  try {
    const csms = await startReferenceCsms(options);
    process.on('message', async (request: Request) => {
      if (request.type === 'stats') {
        const cpu = process.cpuUsage();
        const stats = { ...csms.stats(), processCpuMs: Math.round((cpu.user + cpu.system) / 1000) };
        send({ type: 'stats', stats } satisfies Reply);
      } else {
        await csms.close();
        send({ type: 'closed' } satisfies Reply, () => process.exit(0));
      }
    });
    process.on('disconnect', () => process.exit(0));
    send({ type: 'ready', url: csms.url } satisfies Reply);
  } catch (error) {
    send({ type: 'failed', message: (error as Error).message } satisfies Reply, () => process.exit(1));
  }
}
