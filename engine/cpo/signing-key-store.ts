// Tariff signing keys per organization: generated (Ed25519) or imported (any PEM private key).
// The newest key is the organization's signing key. Private keys are sealed with the SecretBox
// before they reach the database and never leave this module but as a KeyObject for signing.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import type { Queryable } from '../platform/db/database.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';

export interface PublicSigningKey {
  key_id: string;
  algorithm: string;
  public_key_pem: string;
}

export class InvalidPrivateKeyError extends Error {}

/** Algorithm names as JOSE/WebCrypto spell them; EC keys carry their curve. */
function algorithmOf(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  switch (type) {
    case 'ed25519':
      return 'Ed25519';
    case 'ed448':
      return 'Ed448';
    case 'rsa':
      return 'RSA';
    case 'rsa-pss':
      return 'RSA-PSS';
    case 'ec':
      return `EC ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim();
    default:
      return String(type ?? 'unknown').toUpperCase();
  }
}

export class SigningKeyStore {
  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
  ) {}

  /** Generates an Ed25519 key, or imports `privateKeyPem` (InvalidPrivateKeyError if it is not one). */
  async add(orgId: string, privateKeyPem?: string): Promise<PublicSigningKey> {
    let privateKey: KeyObject;
    if (privateKeyPem === undefined) {
      privateKey = generateKeyPairSync('ed25519').privateKey;
    } else {
      try {
        privateKey = createPrivateKey({ key: privateKeyPem, format: 'pem' });
      } catch (err) {
        throw new InvalidPrivateKeyError((err as Error).message);
      }
      if (privateKey.type !== 'private') throw new InvalidPrivateKeyError('not a private key');
    }
    const publicKey = createPublicKey(privateKey);
    const spki = publicKey.export({ type: 'spki', format: 'der' });
    // The key id names the public key itself: the same key always has the same id.
    const keyId = createHash('sha256').update(spki).digest('base64url').slice(0, 32);
    const algorithm = algorithmOf(privateKey);
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await this.db.query(
      `INSERT INTO cpo_signing_keys (organization_id, key_id, algorithm, public_key_pem, private_key_enc)
       VALUES ($1, $2, $3, $4, $5)`,
      [orgId, keyId, algorithm, publicPem, this.box.seal(pkcs8, `${orgId}/${keyId}`)],
    );
    return { key_id: keyId, algorithm, public_key_pem: publicPem };
  }

  /** The organization's signing key (its newest), public part only. */
  async current(orgId: string): Promise<PublicSigningKey | undefined> {
    const { rows } = await this.db.query<PublicSigningKey>(
      `SELECT key_id, algorithm, public_key_pem FROM cpo_signing_keys
       WHERE organization_id = $1 ORDER BY id DESC LIMIT 1`,
      [orgId],
    );
    return rows[0];
  }

  /** The private signing key, for whoever signs the organization's tariffs. */
  async privateKey(
    orgId: string,
  ): Promise<{ key_id: string; algorithm: string; key: KeyObject } | undefined> {
    const { rows } = await this.db.query<{ key_id: string; algorithm: string; private_key_enc: string }>(
      `SELECT key_id, algorithm, private_key_enc FROM cpo_signing_keys
       WHERE organization_id = $1 ORDER BY id DESC LIMIT 1`,
      [orgId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const pem = this.box.open(row.private_key_enc, `${orgId}/${row.key_id}`);
    return { key_id: row.key_id, algorithm: row.algorithm, key: createPrivateKey(pem) };
  }
}
