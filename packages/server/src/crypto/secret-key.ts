import crypto from 'node:crypto';

/**
 * A raw secret key as a KeyObject, made once where the key is loaded, for the HMACs and ciphers of hot paths.
 *
 * Handed a Buffer, Node 24's createHmac, createCipheriv and createDecipheriv first find out that it is neither a
 * KeyObject nor a CryptoKey, by catching two failed private-field brand checks: 8.7 us a call on this machine,
 * against 1.7 us for the same HMAC-SHA256 keyed by a KeyObject (or a string). The 4.2 upload URL makes two such
 * HMACs (object address, URL token): 57 -> 36-39 us of CPU a request (docs/benchmarks.md, "What this round changed").
 */
export function secretKey(raw: Buffer): crypto.KeyObject {
  return crypto.createSecretKey(raw);
}
