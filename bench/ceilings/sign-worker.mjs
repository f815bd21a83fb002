// A signing thread of the ceilings' SignPool (shared.mjs): RSA-SHA256
// (PKCS#1 v1.5, 5.3) over a batch of sign bases, answered as one message, as
// the service's platform-keys/sign-worker does. The key arrives once.
import crypto from 'node:crypto';
import { parentPort } from 'node:worker_threads';

let key;
parentPort.on('message', (m) => {
  if (m.kind === 'key') {
    key = m.key;
    return;
  }
  parentPort.postMessage({
    batch: m.batch,
    signatures: m.bases.map((base) => crypto.sign('sha256', Buffer.from(base, 'utf8'), key).toString('base64')),
  });
});
