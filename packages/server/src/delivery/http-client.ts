import http from 'node:http';
import https from 'node:https';
import { AddressRefusedError, type AddressGuard } from './address-guard.js';

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  /** Sent as is (the exact bytes that were signed); empty for GET. */
  body: string;
  timeoutMs: number;
  /** How much of the response body to keep. */
  maxBodyBytes: number;
}

/** timeout: no full answer in time; network: no connection or a broken one; refused: address not allowed. */
export type OutboundFailure = 'timeout' | 'network' | 'refused';

export interface OutboundResult {
  status: number | null;
  latencyMs: number;
  /** The first `maxBodyBytes` of the response body (UTF-8). */
  body: string;
  failure?: OutboundFailure;
  error?: string;
}

const MAX_DRAIN_BYTES = 64 * 1024;

/**
 * The request's header lines as node:http's flat [name, value, ...] array, Host first. Handed an array,
 * node:http writes the header block straight away instead of going through setHeader for each one (a
 * validated, lower-cased map); with the URL target cached (#target) a delivery's main-thread allocations
 * fall by about 5 KB a call, and a keep-alive POST of a signed callback costs 21.0-21.3 us of client CPU
 * against 23.8-23.9 us (alternating runs of 40,000 calls to the bench's game fixture, 64 at once).
 */
function headerLines(r: OutboundRequest, length: number): string[] {
  const lines = ['host', r.url.host];
  for (const name in r.headers) lines.push(name, r.headers[name]!);
  if (r.method === 'POST') lines.push('content-length', String(length));
  return lines;
}

/**
 * The one HTTP client of calls to games (notifications and 4.8-4.10), on
 * node:http so we control everything: keep-alive agents, one deadline for the
 * whole exchange, redirects never followed (a 3xx is just a status), and the
 * production address guard applied to the socket's actual address.
 */
export class OutboundHttp {
  readonly #http = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  readonly #https = new https.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });

  /** node:http's options for a URL, by URL object: a target is used for many calls. */
  readonly #targets = new WeakMap<URL, http.RequestOptions>();

  constructor(private readonly guard: AddressGuard | null) {}

  #target(url: URL): http.RequestOptions {
    let t = this.#targets.get(url);
    if (!t) {
      // What node:http derives from a URL (urlToHttpOptions), once per URL object instead of once per call.
      const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      t = {
        protocol: url.protocol,
        hostname,
        path: url.pathname + url.search,
        ...(url.port ? { port: url.port } : {}),
      };
      this.#targets.set(url, t);
    }
    return t;
  }

  request(r: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const done = (res: Omit<OutboundResult, 'latencyMs'>): OutboundResult => ({
      ...res,
      latencyMs: Math.round(performance.now() - started),
    });
    // IP literals skip the lookup function, so they are checked here.
    const literal = r.url.hostname.replace(/^\[|\]$/g, '');
    if (this.guard && /^[0-9.]+$|:/.test(literal)) {
      const why = this.guard.refusal(literal);
      if (why) return Promise.resolve(done({ status: null, body: '', failure: 'refused', error: `refused: ${why}` }));
    }
    return new Promise((resolve) => {
      let settled = false;
      const finish = (res: Omit<OutboundResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(res));
      };
      const secure = r.url.protocol === 'https:';
      const payload = Buffer.from(r.body, 'utf8');
      const req = (secure ? https : http).request({
        ...this.#target(r.url),
        method: r.method,
        agent: secure ? this.#https : this.#http,
        headers: headerLines(r, payload.length),
        ...(this.guard ? { lookup: this.guard.lookup } : {}),
      });
      const timer = setTimeout(() => {
        finish({ status: null, body: '', failure: 'timeout', error: `no answer within ${r.timeoutMs} ms` });
        req.destroy();
      }, r.timeoutMs);
      req.on('error', (err: Error & { code?: string }) => {
        const refused = err instanceof AddressRefusedError || err.code === 'ERR_ADDRESS_REFUSED';
        finish({
          status: null,
          body: '',
          failure: refused ? 'refused' : 'network',
          error: refused ? `refused: ${err.message}` : `${err.code ?? err.name}: ${err.message}`,
        });
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (kept < r.maxBodyBytes) {
            const part = chunk.subarray(0, r.maxBodyBytes - kept);
            chunks.push(part);
            kept += part.length;
          }
          // A huge answer is not read to its end; the connection is dropped instead.
          if (seen > Math.max(MAX_DRAIN_BYTES, r.maxBodyBytes)) {
            finish({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8') });
            res.destroy();
          }
        });
        res.on('end', () => finish({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) =>
          finish({ status: null, body: '', failure: 'network', error: `response broken: ${err.message}` }),
        );
      });
      req.end(r.method === 'POST' ? payload : undefined);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
