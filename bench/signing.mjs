// Helpers for scenarios that sign requests the way a game server does.
import crypto from 'node:crypto';
import { md5Sign } from '../packages/sdk/dist/index.js';

export function freshReplay() {
  return { nonce: crypto.randomBytes(12).toString('base64url'), timestamp: String(Math.floor(Date.now() / 1000)) };
}

/** A GET path with md5-signed query parameters (5.1), fresh nonce and timestamp each call. */
export function signedQueryPath(path, params, secret) {
  const all = { ...params, ...freshReplay() };
  return `${path}?${new URLSearchParams({ ...all, sign: md5Sign(all, secret) })}`;
}

/** A JSON body with md5 signature (5.1); `numericTimestamp` for 4.6. */
export function signedBody(params, secret, { numericTimestamp = false } = {}) {
  const replay = freshReplay();
  const all = {
    ...params,
    nonce: replay.nonce,
    timestamp: numericTimestamp ? Number(replay.timestamp) : replay.timestamp,
  };
  return JSON.stringify({ ...all, sign: md5Sign(all, secret) });
}
