import crypto, { type KeyObject } from 'node:crypto';
import { ProviderError } from '../provider.js';

/**
 * WeChat Pay API v3's signatures and encryption, with node:crypto (docs/web-payment.md, "WeChat Pay without an SDK"),
 * from WeChat Pay's API v3 reference ("签名生成", "签名验证", "回调报文解密"):
 * - a request is signed by the merchant: SHA256withRSA (PKCS#1 v1.5) of `METHOD\nURL\ntimestamp\nnonce\nbody\n`
 *   under the merchant API certificate's private key, sent as `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=...,
 *   nonce_str=...,signature=...,timestamp=...,serial_no=...`;
 * - an answer and a notification are signed by WeChat Pay: SHA256withRSA of `timestamp\nnonce\nbody\n` in
 *   Wechatpay-Signature, under the platform key named by Wechatpay-Serial (a platform certificate's serial or a
 *   platform public key's id, PUB_KEY_ID_...), Wechatpay-Timestamp fresh;
 * - a notification's `resource` is AEAD_AES_256_GCM under the API v3 key (32 bytes), its nonce and associated_data
 *   given, the ciphertext base64 of the encrypted bytes followed by the 16-byte tag.
 */
export const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';
/** WeChat Pay's documented tolerance: a signed message older or newer than 5 minutes is refused (replays). */
export const FRESH_SECONDS = 300;

/** The Authorization header of one request to the API v3 (`url`: path and query, as sent). */
export function authorization(
  m: { mchId: string; serialNo: string; privateKey: KeyObject },
  method: string,
  url: string,
  body: string,
  nowMs: number,
): string {
  const timestamp = String(Math.floor(nowMs / 1000));
  const nonce = crypto.randomBytes(16).toString('hex');
  const message = `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
  const signature = crypto.sign('sha256', Buffer.from(message), m.privateKey).toString('base64');
  return `${AUTH_SCHEME} mchid="${m.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${m.serialNo}"`;
}

/** The platform's key and the Wechatpay-Serial it is named by. */
export interface PlatformKey {
  serial: string;
  key: KeyObject;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | null => {
  const v = headers[name.toLowerCase()];
  return typeof v === 'string' ? v : null;
};

/**
 * Checks a message signed by WeChat Pay (an API answer or a notification): the serial names the configured platform
 * key, the timestamp is within 5 minutes of now, and the signature verifies over the exact body. Throws ProviderError
 * (missing_signature, bad_signature, stale) otherwise.
 */
export function verifySigned(
  platform: PlatformKey,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  nowMs: number,
): void {
  const signature = header(headers, 'Wechatpay-Signature');
  const serial = header(headers, 'Wechatpay-Serial');
  const timestamp = header(headers, 'Wechatpay-Timestamp');
  const nonce = header(headers, 'Wechatpay-Nonce');
  if (!signature || !serial || !timestamp || !nonce)
    throw new ProviderError('missing_signature', 'no Wechatpay-Signature, -Serial, -Timestamp and -Nonce headers');
  // A probe WeChat Pay sends to check that signatures are verified carries this prefix: it must fail (its docs).
  if (signature.startsWith('WECHATPAY/SIGNTEST/'))
    throw new ProviderError('bad_signature', 'a signature test probe (WECHATPAY/SIGNTEST/)');
  const type = header(headers, 'Wechatpay-Signature-Type');
  if (type !== null && type !== 'WECHATPAY2-SHA256-RSA2048')
    throw new ProviderError('bad_signature', 'Wechatpay-Signature-Type is not WECHATPAY2-SHA256-RSA2048');
  if (!sameText(serial, platform.serial))
    throw new ProviderError('bad_signature', 'Wechatpay-Serial names another platform certificate or public key');
  if (!/^[0-9]{1,12}$/.test(timestamp)) throw new ProviderError('stale', 'Wechatpay-Timestamp is not a time');
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > FRESH_SECONDS)
    throw new ProviderError('stale', `Wechatpay-Timestamp is more than ${FRESH_SECONDS} s from now`);
  if (!/^[A-Za-z0-9+/]{1,1024}={0,2}$/.test(signature))
    throw new ProviderError('bad_signature', 'Wechatpay-Signature is not base64');
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${timestamp}\n${nonce}\n${body}\n`),
    platform.key,
    Buffer.from(signature, 'base64'),
  );
  if (!ok) throw new ProviderError('bad_signature', 'Wechatpay-Signature does not verify with the platform key');
}

/** AEAD_AES_256_GCM of a notification's resource; malformed when it does not authenticate under the API v3 key. */
export function decryptResource(
  apiV3Key: string,
  r: { ciphertext: string; nonce: string; associated_data?: string },
): string {
  const key = Buffer.from(apiV3Key, 'utf8');
  const data = Buffer.from(r.ciphertext, 'base64');
  if (key.length !== 32 || data.length <= 16)
    throw new ProviderError('malformed', 'resource.ciphertext is not AEAD_AES_256_GCM of the API v3 key');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(r.nonce, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    decipher.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new ProviderError('malformed', 'resource does not decrypt under the API v3 key');
  }
}

/** The reverse, for the fake: what WeChat Pay does to a resource. */
export function encryptResource(apiV3Key: string, plaintext: string, nonce: string, associatedData: string): string {
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([data, cipher.getAuthTag()]).toString('base64');
}

/** The platform's public key from its PEM: a public key (微信支付公钥) or a platform certificate (平台证书). */
export function platformPublicKey(text: string): KeyObject {
  const p = pem(text);
  if (p.includes('BEGIN CERTIFICATE')) return new crypto.X509Certificate(p).publicKey;
  return crypto.createPublicKey(p);
}

/**
 * A PEM as OpenSSL reads it, from what a studio pasted: a one-line field (the console's) drops or blanks its line
 * breaks, so the base64 between the BEGIN and END lines is taken whole and wrapped again at 64.
 */
export function pem(text: string): string {
  const m = /-----BEGIN ([A-Z0-9 ]{1,40})-----([A-Za-z0-9+/=\s]+)-----END \1-----/.exec(text);
  if (!m) return text;
  const body = m[2]!.replace(/\s+/g, '');
  return `-----BEGIN ${m[1]}-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${m[1]}-----\n`;
}

/** Constant-time comparison of two texts (a serial named by the request against ours). */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a.toUpperCase());
  const y = Buffer.from(b.toUpperCase());
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
