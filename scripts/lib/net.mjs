// What the scripts that start servers share (scripts/demo.mjs, deploy/test/image.mjs, bench/lib.mjs): a free port to
// start one on, a wait for it (or anything else) to be ready, and a JSON request to it.
import net from 'node:net';

/** A TCP port free on 127.0.0.1 now: the system picks one for a listener that is closed again at once. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `probe` until it returns something truthy, and returns that; a probe that throws has not succeeded yet (a
 * server still starting refuses connections). Fails after `timeoutMs` naming `what` and the probe's last error.
 * `gone()`, asked before each try, says why waiting is pointless (a process that exited) or nothing; `error` makes
 * the error thrown (a script's own class, to print its message alone).
 */
export async function waitFor(
  what,
  probe,
  timeoutMs = 15_000,
  { gone = () => null, error = (m) => new Error(m) } = {},
) {
  const until = Date.now() + timeoutMs;
  let last;
  for (;;) {
    const why = gone();
    if (why) throw error(`${why} while waiting for ${what}`);
    try {
      const value = await probe();
      if (value) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until)
      throw error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One HTTP request with an optional JSON body (10 s at most); answers the status and the body parsed as JSON (the
 * text itself when it is not JSON, undefined when empty).
 */
export async function jsonRequest(method, url, { headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}
