// TRANSFER_ALLOWED_HOSTS: firmware downloads and log uploads reach only the hosts on the list,
// redirects included; a refused transfer fails as any failed transfer does (DownloadFailed /
// UploadFailed). Two real HTTP servers on 127.0.0.1 and 127.0.0.2 stand for an allowed host and an
// internal one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createActor, setup, type AnyEventObject } from 'xstate';
import { ConfigError, loadConfig } from '../../../engine/platform/config/config.ts';
import {
  allowListFetch,
  hostAllowed,
  HostNotAllowedError,
} from '../../../engine/platform/net/allowed-fetch.ts';
import { createTransfers } from '../../../engine/charger/transfers.ts';
import type { TransferCommand, TransferResult } from '../../../actors/charger/core/transfers.ts';

interface Host {
  url: string;
  paths: string[];
  server: Server;
}

/** Answers /fw.bin with an image and /to?url=... with a 302 there; records every path asked. */
async function startHost(address: string): Promise<Host> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url!);
    const to = new URL(req.url!, 'http://x').searchParams.get('url');
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(200, { 'x-firmware-version': '2.4.1' }).end('image');
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return { url: `http://${address}:${(server.address() as AddressInfo).port}`, paths, server };
}

let allowed: Host;
let internal: Host;
const guarded = () => allowListFetch(['127.0.0.1']);

before(async () => {
  [allowed, internal] = await Promise.all([startHost('127.0.0.1'), startHost('127.0.0.2')]);
});
after(async () => {
  for (const h of [allowed, internal]) await new Promise((resolve) => h.server.close(resolve));
});

test('TRANSFER_ALLOWED_HOSTS: unset allows any host; a comma list is kept lower-case; a bad entry is refused', () => {
  assert.equal(loadConfig({}).transferAllowedHosts, undefined);
  assert.deepEqual(
    loadConfig({ TRANSFER_ALLOWED_HOSTS: 'Files.Example.com, *.cdn.example.net,[fd00::1]' })
      .transferAllowedHosts,
    ['files.example.com', '*.cdn.example.net', '[fd00::1]'],
  );
  assert.throws(() => loadConfig({ TRANSFER_ALLOWED_HOSTS: 'http://files.example.com' }), ConfigError);
  assert.throws(() => loadConfig({ TRANSFER_ALLOWED_HOSTS: 'a.example.com,' }), /TRANSFER_ALLOWED_HOSTS/);
});

test('a *.domain pattern allows its subdomains only; a name allows itself only', () => {
  const list = ['*.example.com', 'files.example.net'];
  assert.equal(hostAllowed(list, 'a.example.com'), true);
  assert.equal(hostAllowed(list, 'b.a.example.com'), true);
  assert.equal(hostAllowed(list, 'example.com'), false);
  assert.equal(hostAllowed(list, 'badexample.com'), false);
  assert.equal(hostAllowed(list, 'FILES.example.net'), true);
  assert.equal(hostAllowed(list, 'x.files.example.net'), false);
});

test('an allowed host is fetched; a host not on the list is refused before any request', async () => {
  const res = await guarded()(`${allowed.url}/fw.bin`);
  assert.equal(await res.text(), 'image');
  await assert.rejects(guarded()(`${internal.url}/fw.bin`), HostNotAllowedError);
  assert.deepEqual(internal.paths, []);
});

test('a redirect to a host not on the list is refused; one to an allowed host is followed', async () => {
  const away = `${allowed.url}/to?url=${encodeURIComponent(`${internal.url}/fw.bin`)}`;
  await assert.rejects(guarded()(away), /127\.0\.0\.2 is not in TRANSFER_ALLOWED_HOSTS/);
  assert.deepEqual(internal.paths, []);
  const home = `${allowed.url}/to?url=${encodeURIComponent('/fw.bin')}`;
  const res = await guarded()(home);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), 'image');
});

/** Runs one transfer as the charger machine does (a child actor answering transfer.result). */
function transfer(command: TransferCommand, fetch: typeof globalThis.fetch): Promise<TransferResult> {
  return new Promise((resolve) => {
    const machine = setup({
      actors: { transfers: createTransfers({ log: pino({ level: 'silent' }), fetch }) },
    }).createMachine({
      invoke: { src: 'transfers', input: command },
      on: {
        'transfer.result': {
          actions: ({ event }: { event: AnyEventObject }) => resolve(event as TransferResult),
        },
      },
    });
    createActor(machine).start();
  });
}

test('a firmware download from a host not on the list answers failed (the firmware block then reports DownloadFailed), saying why', async () => {
  const r = await transfer({ type: 'transfer.download', id: 'd1', url: `${internal.url}/fw.bin` }, guarded());
  assert.equal(r.ok, false);
  assert.equal(r.error, 'failed');
  assert.match(r.detail!, /not in TRANSFER_ALLOWED_HOSTS/);
  const ok = await transfer({ type: 'transfer.download', id: 'd2', url: `${allowed.url}/fw.bin` }, guarded());
  assert.deepEqual([ok.ok, ok.firmwareVersion], [true, '2.4.1']);
  assert.deepEqual(internal.paths, []);
});

test('a log upload to a host not on the list answers failed (the log block then reports UploadFailed), saying why', async () => {
  const r = await transfer(
    {
      type: 'transfer.upload',
      id: 'u1',
      identity: 'CP-1',
      url: `${internal.url}/logs/`,
      fileName: 'log.txt',
      log: 'diagnostics',
    },
    guarded(),
  );
  assert.equal(r.ok, false);
  assert.equal(r.error, 'failed');
  assert.match(r.detail!, /not in TRANSFER_ALLOWED_HOSTS/);
  assert.deepEqual(internal.paths, []);
});
