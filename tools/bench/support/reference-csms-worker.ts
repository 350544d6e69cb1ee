// Runs the reference central system in a worker thread: same process and loopback, but its own
// V8 heap, so the main thread's heap figures are the chargers' alone (RSS stays process-wide).
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { startReferenceCsms, type ReferenceCsmsStats } from '../../reference-csms/reference-csms.ts';

export interface ReferenceCsmsWorker {
  url: string;
  stats(): Promise<ReferenceCsmsStats>;
  close(): Promise<void>;
}

type Request = { type: 'stats' } | { type: 'close' };
type Reply =
  { type: 'ready'; url: string } | { type: 'stats'; stats: ReferenceCsmsStats } | { type: 'closed' };

export async function spawnReferenceCsms(): Promise<ReferenceCsmsWorker> {
  // Node 20 does not apply the parent's --import tsx hooks to a worker's .ts entry: the worker
  // starts as plain JS, registers tsx, then imports this file.
  const entry = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(entry, { eval: true });
  const next = (type: Reply['type']) =>
    new Promise<Reply>((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        if (reply.type !== type) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(reply);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  const ready = (await next('ready')) as Extract<Reply, { type: 'ready' }>;
  const ask = async (request: Request, answer: Reply['type']) => {
    const reply = next(answer);
    worker.postMessage(request);
    return reply;
  };
  return {
    url: ready.url,
    stats: async () => ((await ask({ type: 'stats' }, 'stats')) as Extract<Reply, { type: 'stats' }>).stats,
    close: async () => {
      await ask({ type: 'close' }, 'closed');
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const csms = await startReferenceCsms();
  port.on('message', async (request: Request) => {
    if (request.type === 'stats') port.postMessage({ type: 'stats', stats: csms.stats() } satisfies Reply);
    else {
      await csms.close();
      port.postMessage({ type: 'closed' } satisfies Reply);
    }
  });
  port.postMessage({ type: 'ready', url: csms.url } satisfies Reply);
}
