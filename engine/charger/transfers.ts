// The charger's file transfers for real (the `transfers` port, actors/charger/core/transfers.ts):
// a firmware image downloaded over HTTP(S) with Node's fetch, its signature checked, and its
// version read; a log file made of the charger's recent OCPP frames (handed over by the engine's
// message log) uploaded over HTTP(S). Bytes never enter the machine: it gets one small result per
// command. A charger that stops aborts its transfers.
//
// Firmware version, first that applies (capped at 50 characters, the BootNotification's limit):
//   1. the response header `X-Firmware-Version`;
//   2. a first line `EVSIM-FIRMWARE <version>` in the image;
//   3. the file name (Content-Disposition filename, else the URL's last path segment) without its
//      extension: its first `v?<digits>.<digits>[.<digits>...][-suffix]`, e.g. evsim-ac-2.4.1.bin -> 2.4.1.
//   None: the image is not installed (InstallationFailed).
// Log upload: POST multipart/form-data with the file in the field `file` (as `curl -F`); a server
// that answers 405 gets the file by PUT instead, at the location (or location + file name when the
// location ends with '/'). Any other scheme than http(s) (ftp:, sftp:) is `unsupported`.
import { createVerify, type X509Certificate } from 'node:crypto';
import { fromCallback, type AnyActorRef, type EventObject } from 'xstate';
import type { TransferCommand, TransferResult } from '../../actors/charger/core/transfers.ts';
import { parseCertificates } from '../platform/certificates/pem.ts';
import type { Logger } from '../platform/log/logger.ts';

export type ChargerSystem = AnyActorRef['system'];

/** One frame of a charger's OCPP log, as the message log keeps it. */
export interface LogFrame {
  at: number;
  direction: 'in' | 'out';
  action: string | null;
  frame: string;
}

export interface TransfersOptions {
  log: Logger;
  /** The charger's recent OCPP frames, oldest first (the engine's message log); none: an empty log. */
  recentLog?: (identity: string, system: ChargerSystem) => Promise<LogFrame[]> | LogFrame[];
  /** Default 60 s per attempt. */
  timeoutMs?: number;
  /** Largest firmware image accepted (default 64 MiB). */
  maxBytes?: number;
  /** Instead of the global fetch: TRANSFER_ALLOWED_HOSTS (engine/platform/net/allowed-fetch.ts). */
  fetch?: typeof fetch;
}

const MiB = 1024 * 1024;

/** The transfers actor: spawned per attempt with its command, answers one result, aborted when stopped. */
export function createTransfers(opts: TransfersOptions) {
  return fromCallback<EventObject, TransferCommand>(({ input: c, system, sendBack }) => {
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(opts.timeoutMs ?? 60_000)]);
    const work =
      c.type === 'transfer.download'
        ? download(c, signal, opts.maxBytes ?? 64 * MiB, opts.fetch ?? fetch)
        : upload(c, signal, () => opts.recentLog?.(c.identity, system) ?? [], opts.fetch ?? fetch);
    void work
      .catch((err: unknown): Outcome => ({ ok: false, error: 'failed', detail: reason(err) }))
      .then((r) => {
        if (abort.signal.aborted) return;
        if (!r.ok) opts.log.info({ url: c.url.slice(0, 200), detail: r.detail }, `${c.type} failed`);
        sendBack({ type: 'transfer.result', id: c.id, ...r });
      });
    return () => abort.abort();
  });
}

type Outcome = Omit<TransferResult, 'type' | 'id'>;

const unsupported = (url: string): Outcome | undefined =>
  /^https?:\/\//i.test(url)
    ? undefined
    : {
        ok: false,
        error: 'unsupported',
        detail: `only http(s) transfers are supported: ${url.slice(0, 80)}`,
      };

async function download(
  c: Extract<TransferCommand, { type: 'transfer.download' }>,
  signal: AbortSignal,
  maxBytes: number,
  fetch: typeof globalThis.fetch,
): Promise<Outcome> {
  const no = unsupported(c.url);
  if (no) return no;
  const res = await fetch(c.url, { signal, redirect: 'follow' });
  if (!res.ok) {
    await res.body?.cancel();
    return { ok: false, error: 'failed', detail: `HTTP ${res.status} from the firmware location` };
  }
  // The image is read as it arrives and not kept: its head (for the version line) and the
  // signature check are all it is needed for (10,000 chargers may update at once).
  const check = c.verify ? signatureCheck(c.verify.signature, c.verify.certificate) : undefined;
  const head = await readImage(res, maxBytes, (chunk) => check?.update(chunk));
  const result: Outcome = { ok: true };
  const version = firmwareVersion(res, head, c.url);
  if (version) result.firmwareVersion = version;
  if (check) Object.assign(result, check.result());
  return result;
}

/** Reads the body within maxBytes, feeding each chunk to `onChunk`; returns its first HEAD bytes. */
async function readImage(
  res: Response,
  maxBytes: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<Buffer> {
  const head: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    if (size < HEAD) head.push(chunk.subarray(0, HEAD - size));
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`the firmware image is larger than ${maxBytes} bytes`);
    onChunk(chunk);
  }
  return Buffer.concat(head);
}

/** Bytes of the image kept for the version line. */
const HEAD = 256;
const VERSION_IN_NAME = /v?(\d+(?:\.\d+)+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)/;
const MAGIC = 'EVSIM-FIRMWARE ';

/** The image's version by the rule in this file's head; undefined when it names none. */
export function firmwareVersion(res: Response, bytes: Buffer, url: string): string | undefined {
  const header = res.headers.get('x-firmware-version')?.trim();
  if (header) return header.slice(0, 50);
  if (bytes.subarray(0, MAGIC.length).toString('latin1') === MAGIC) {
    const end = bytes.indexOf(10);
    const v = bytes
      .subarray(MAGIC.length, end < 0 ? Math.min(bytes.length, 200) : end)
      .toString('utf8')
      .trim();
    if (v) return v.slice(0, 50);
  }
  const disposition = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(
    res.headers.get('content-disposition') ?? '',
  );
  const name =
    disposition?.[1] ?? decodeURIComponent(new URL(res.url || url).pathname.split('/').pop() ?? '');
  return VERSION_IN_NAME.exec(name.replace(/\.[A-Za-z][A-Za-z0-9]*$/, ''))?.[1]?.slice(0, 50);
}

type SignatureOutcome = Pick<TransferResult, 'signature' | 'detail'>;

/**
 * L01 / the 1.6 security extension: the base64 `signature` over the image by the public key of the
 * signing certificate (SHA-256; RSA, or ECDSA in DER or raw r||s form as WebCrypto writes it),
 * checked as the image arrives. A certificate that does not parse or is outside its validity is
 * `invalid-certificate`.
 */
export function signatureCheck(
  signature: string,
  certificatePem: string,
): { update(chunk: Uint8Array): void; result(): SignatureOutcome } {
  const certs = parseCertificates(certificatePem);
  const now = Date.now();
  const cert: X509Certificate | undefined = typeof certs === 'string' ? undefined : certs[0];
  const refused: SignatureOutcome | undefined =
    typeof certs === 'string'
      ? { signature: 'invalid-certificate', detail: certs }
      : Date.parse(cert!.validFrom) > now || Date.parse(cert!.validTo) < now
        ? { signature: 'invalid-certificate', detail: 'the signing certificate is not valid now' }
        : undefined;
  if (refused || !cert) return { update: () => {}, result: () => refused! };
  const key = cert.publicKey;
  const ec = key.asymmetricKeyType === 'ec';
  // ECDSA signatures come DER-encoded or raw: both are checked, over one pass of the image.
  const der = createVerify('sha256');
  const raw = ec ? createVerify('sha256') : undefined;
  return {
    update(chunk) {
      der.update(chunk);
      raw?.update(chunk);
    },
    result() {
      const sig = Buffer.from(signature, 'base64');
      const valid =
        sig.length > 0 &&
        (safeVerify(() => der.verify(key, sig)) ||
          (raw !== undefined && safeVerify(() => raw.verify({ key, dsaEncoding: 'ieee-p1363' }, sig))));
      return valid
        ? { signature: 'valid' }
        : { signature: 'invalid', detail: 'the firmware signature does not match the image' };
    },
  };
}

/** The signature check of a whole image at once. */
export function checkSignature(bytes: Buffer, signature: string, certificatePem: string): SignatureOutcome {
  const check = signatureCheck(signature, certificatePem);
  check.update(bytes);
  return check.result();
}

const safeVerify = (f: () => boolean) => {
  try {
    return f();
  } catch {
    return false;
  }
};

async function upload(
  c: Extract<TransferCommand, { type: 'transfer.upload' }>,
  signal: AbortSignal,
  frames: () => Promise<LogFrame[]> | LogFrame[],
  fetch: typeof globalThis.fetch,
): Promise<Outcome> {
  const no = unsupported(c.url);
  if (no) return no;
  const text = logFile(await frames(), c);
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), c.fileName);
  let res = await fetch(c.url, { method: 'POST', body: form, signal });
  if (res.status === 405) {
    await res.body?.cancel();
    const target = c.url.endsWith('/') ? c.url + encodeURIComponent(c.fileName) : c.url;
    res = await fetch(target, {
      method: 'PUT',
      body: text,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      signal,
    });
  }
  await res.body?.cancel();
  return res.ok
    ? { ok: true }
    : { ok: false, error: 'failed', detail: `HTTP ${res.status} from the upload location` };
}

/** One line per frame: time, direction (out = sent by the charger), the OCPP-J frame as it went. */
export function logFile(
  frames: LogFrame[],
  c: { log: 'diagnostics' | 'security'; from?: number; to?: number },
): string {
  const lines = frames
    .filter((f) => (c.from === undefined || f.at >= c.from) && (c.to === undefined || f.at <= c.to))
    .filter((f) => c.log === 'diagnostics' || f.action === 'SecurityEventNotification')
    .map((f) => `${new Date(f.at).toISOString()} ${f.direction === 'out' ? '>>' : '<<'} ${f.frame}`);
  return lines.length ? lines.join('\n') + '\n' : '';
}

function reason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'the transfer timed out';
  return (e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err)).slice(0, 200);
}
