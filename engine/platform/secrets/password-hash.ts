// Hashes of generated Basic-auth passwords (charge points of the built-in central system).
import { createHash, timingSafeEqual } from 'node:crypto';

/** Salted SHA-256: the password is 192 random bits, so a slow hash buys nothing at connect time. */
export function hashPassword(password: string, salt: string): string {
  return createHash('sha256').update(salt).update(password).digest('base64url');
}

export function passwordMatches(password: string, salt: string, hash: string): boolean {
  const a = Buffer.from(hashPassword(password, salt));
  const b = Buffer.from(hash);
  return a.length === b.length && timingSafeEqual(a, b);
}
