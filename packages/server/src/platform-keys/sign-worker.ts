import crypto from 'node:crypto';
import { parentPort } from 'node:worker_threads';

/**
 * A signing thread of SignPool: RSA-SHA256 (PKCS#1 v1.5) over sign bases
 * sent by the main thread. Keys arrive once per key id and are kept.
 */
const keys = new Map<string, crypto.KeyObject>();

parentPort!.on('message', (m: { kind: 'key'; kid: string; key: crypto.KeyObject } | { kind: 'sign'; id: number; kid: string; base: Uint8Array }) => {
  if (m.kind === 'key') {
    keys.set(m.kid, m.key);
    return;
  }
  try {
    const key = keys.get(m.kid);
    if (!key) throw new Error(`signing key ${m.kid} was not sent to this worker`);
    parentPort!.postMessage({ id: m.id, signature: crypto.sign('sha256', m.base, key).toString('base64') });
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: (err as Error).message });
  }
});
