import crypto from 'node:crypto';

/**
 * An independent check of an AWS SigV4 presigned URL (query signing), for the
 * tests: recomputes the signature for the request a client would send, so a
 * test can show which changes (length, key, expiry) break it. S3-compatible
 * test servers do not check signatures themselves.
 */
const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: string) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');

export function sigV4Valid(
  url: string,
  method: string,
  headers: Record<string, string>,
  secretAccessKey: string,
): boolean {
  const u = new URL(url);
  const q = u.searchParams;
  const signature = q.get('X-Amz-Signature');
  const [, date, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  const amzDate = q.get('X-Amz-Date') ?? '';
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const all: Record<string, string> = {
    host: u.host,
    ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [enc(k), enc(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    method,
    u.pathname,
    query,
    signedHeaders.map((h) => `${h}:${(all[h] ?? '').trim()}\n`).join(''),
    signedHeaders.join(';'),
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region!), service!), 'aws4_request');
  return crypto.createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex') === signature;
}
