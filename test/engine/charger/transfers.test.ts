// The engine's side of firmware transfers (engine/charger/transfers.ts): the rule that reads an
// image's firmware version, the signature check of a signed image, and the lines of an uploaded log.
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { checkSignature, firmwareVersion, logFile } from '../../../engine/charger/transfers.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const IMAGE = Buffer.from('an image');
const answer = (headers: Record<string, string> = {}) => new Response(null, { headers });

for (const [why, headers, bytes, url, version] of [
  [
    'the X-Firmware-Version header first',
    { 'x-firmware-version': '9.9.9' },
    'EVSIM-FIRMWARE 1.0\n',
    'http://h/fw-2.0.0.bin',
    '9.9.9',
  ],
  [
    'then a first line EVSIM-FIRMWARE <version>',
    {},
    'EVSIM-FIRMWARE 3.1.4-beta\nrest',
    'http://h/fw-2.0.0.bin',
    '3.1.4-beta',
  ],
  [
    'then the Content-Disposition file name',
    { 'content-disposition': 'attachment; filename="ac-7.2.bin"' },
    'x',
    'http://h/download?id=4',
    '7.2',
  ],
  [
    'then the URL file name without its extension',
    {},
    'x',
    'http://h/fw/evsim-ac-2.4.1-rc1.bin',
    '2.4.1-rc1',
  ],
  ['a v prefix is not part of the version', {}, 'x', 'http://h/fw/image_v10.0.3.img', '10.0.3'],
  ['none of them: no version', {}, 'x', 'http://h/fw/latest.bin', undefined],
] as const)
  test(`L01 firmware version: ${why}`, () => {
    assert.equal(firmwareVersion(answer(headers), Buffer.from(bytes), url), version);
  });

async function signer(
  algorithm: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams,
  sign: webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams,
) {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '02',
    name: 'CN=Signer',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: { ...algorithm, ...(sign as object) },
    keys,
  });
  const signature = Buffer.from(await webcrypto.subtle.sign(sign, keys.privateKey, IMAGE)).toString('base64');
  return { pem: cert.toString('pem'), signature };
}

test('L01 an RSA (PKCS#1 v1.5, SHA-256) signature over the image is valid', async () => {
  const s = await signer(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    { name: 'RSASSA-PKCS1-v1_5' },
  );
  assert.deepEqual(checkSignature(IMAGE, s.signature, s.pem), { signature: 'valid' });
  assert.equal(checkSignature(Buffer.from('another image'), s.signature, s.pem).signature, 'invalid');
});

test('L01 an ECDSA P-256 signature (raw r||s as WebCrypto writes it) over the image is valid', async () => {
  const s = await signer({ name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' });
  assert.deepEqual(checkSignature(IMAGE, s.signature, s.pem), { signature: 'valid' });
  assert.equal(checkSignature(IMAGE, '', s.pem).signature, 'invalid');
});

test('L01 a signing certificate that does not parse is invalid-certificate', () => {
  assert.equal(checkSignature(IMAGE, 'AAAA', 'not a certificate').signature, 'invalid-certificate');
});

test('N01 a log file has one line per frame (>> sent, << received) within the window asked', () => {
  const frames = [
    {
      at: Date.parse('2026-01-01T00:00:00Z'),
      direction: 'out' as const,
      action: 'Heartbeat',
      frame: '[2,"1","Heartbeat",{}]',
    },
    {
      at: Date.parse('2026-01-01T00:00:01Z'),
      direction: 'in' as const,
      action: 'Heartbeat',
      frame: '[3,"1",{}]',
    },
    {
      at: Date.parse('2026-01-01T00:00:02Z'),
      direction: 'out' as const,
      action: 'Heartbeat',
      frame: '[2,"2","Heartbeat",{}]',
    },
  ];
  assert.equal(
    logFile(frames, { log: 'diagnostics', to: Date.parse('2026-01-01T00:00:01Z') }),
    '2026-01-01T00:00:00.000Z >> [2,"1","Heartbeat",{}]\n2026-01-01T00:00:01.000Z << [3,"1",{}]\n',
  );
  assert.equal(logFile(frames, { log: 'security' }), '');
});
