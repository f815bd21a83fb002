import crypto from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { rsaSignText, type SignAnswer, type SignBatch } from './sign-pool.js';

/**
 * A signing thread of SignPool: RSA-SHA256 (PKCS#1 v1.5) over batches of
 * sign bases sent by the main thread, answered as one message per batch.
 * Keys arrive once per key id and are kept.
 */
const keys = new Map<string, crypto.KeyObject>();

parentPort!.on('message', (m: { kind: 'key'; kid: string; key: crypto.KeyObject } | SignBatch) => {
  if (m.kind === 'key') {
    keys.set(m.kid, m.key);
    return;
  }
  let answer: SignAnswer;
  try {
    answer = {
      batch: m.batch,
      signatures: m.bases.map((base, i) => {
        const key = keys.get(m.kids[i]!);
        if (!key) throw new Error(`signing key ${m.kids[i]} was not sent to this worker`);
        return rsaSignText(base, key);
      }),
    };
  } catch (err) {
    answer = { batch: m.batch, error: (err as Error).message };
  }
  parentPort!.postMessage(answer);
});
