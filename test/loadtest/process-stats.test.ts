// Reading other processes for the load test: a listener found by its port, its memory and CPU
// from /proc, and what an unknown process reads as.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import {
  cpuPercentBetween,
  findListenerPid,
  readProcess,
  readProcesses,
} from '../../tools/loadtest/process-stats.ts';

test('the process listening on a port is found by the port', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    assert.equal(findListenerPid(port), process.pid);
  } finally {
    server.close();
  }
});

test('a port nobody listens on has no process', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  assert.equal(findListenerPid(port), null);
});

test("a process's RSS and CPU time are what it says of itself", () => {
  const reading = readProcess(process.pid)!;
  const own = process.memoryUsage().rss;
  assert.ok(Math.abs(reading.rss - own) < own * 0.2, `${reading.rss} vs ${own}`);
  const cpu = process.cpuUsage();
  const ownMs = (cpu.user + cpu.system) / 1000;
  assert.ok(Math.abs(reading.cpuMs - ownMs) < Math.max(50, ownMs * 0.1), `${reading.cpuMs} vs ${ownMs}`);
});

test('a process that does not exist reads as null, and sums skip it', () => {
  assert.equal(readProcess(2 ** 30), null);
  assert.equal(readProcesses([2 ** 30]), null);
  const both = readProcesses([process.pid, 2 ** 30])!.rss;
  const one = readProcess(process.pid)!.rss;
  assert.ok(Math.abs(both - one) < one * 0.1, `${both} vs ${one}`);
});

test('CPU between two readings is in % of one core', () => {
  assert.equal(cpuPercentBetween({ rss: 0, cpuMs: 1000 }, { rss: 0, cpuMs: 1500 }, 1000), 50);
});
