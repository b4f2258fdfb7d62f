import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/**
 * The SCRAM-SHA-256 verifier of a password, as PostgreSQL stores it (RFC 5802, RFC 7677; PostgreSQL's
 * `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`). A role's password is set from its verifier
 * (`CREATE ROLE … PASSWORD 'SCRAM-SHA-256$…'`), as psql's \password does, so the password itself never travels
 * in an SQL statement and cannot land in the server's statement log.
 *
 * The password must be ASCII (SASLprep leaves ASCII as it is, so no normalisation is needed): Loket makes its
 * terminals' passwords from base64url characters.
 */
export function scramVerifier(password: string, iterations = 4096, salt: Buffer = randomBytes(16)): string {
  if (!/^[\x21-\x7e]+$/.test(password)) throw new Error('a SCRAM password here is printable ASCII');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** A new random password: 32 bytes as base64url (43 characters). */
export function newPassword(): string {
  return randomBytes(32).toString('base64url');
}
