import crypto, { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { crc32 } from 'node:zlib';
import { ProviderError, type WebhookRequest } from '../provider.js';

/** How far PAYPAL-TRANSMISSION-TIME may be from our clock: an older transmission is a replay (or a stale retry). */
export const TRANSMISSION_TOLERANCE_SECONDS = 300;
/** Where PayPal serves its webhook signing certificates (the PAYPAL-CERT-URL it sends is under this path). */
export const CERT_PATH = '/v1/notifications/certs/';
/** The hosts PayPal sends PAYPAL-CERT-URL on (live and sandbox), when PAYPAL_CERT_URL_ORIGINS names none. */
export const PAYPAL_CERT_ORIGINS = [
  'https://api.paypal.com',
  'https://api.sandbox.paypal.com',
  'https://api-m.paypal.com',
  'https://api-m.sandbox.paypal.com',
];
/** The signing certificate is issued to a host under paypal.com (messageverificationcerts.paypal.com). */
const LEAF_NAME = /^CN=([a-z0-9-]+\.)+paypal\.com$/im;
const MAX_CERT_BYTES = 64 * 1024;
const MAX_CHAIN = 5;
/** Verified certificates kept by URL (PayPal signs with few; each is checked for validity again at every use). */
const CACHE_SIZE = 32;
const CACHE_MS = 24 * 3600_000;

export interface PaypalSignatureOptions {
  /** Origins (scheme, host, port) PAYPAL-CERT-URL may be on (PAYPAL_CERT_URL_ORIGINS; default PayPal's). */
  certOrigins: string[];
  /** Trusted root certificates, PEM (PAYPAL_CERT_ROOTS_FILE; default Node's bundled Mozilla roots). */
  roots: string[];
  /** Timeout of the certificate download. */
  timeoutMs: number;
  now?: () => number;
}

/**
 * PayPal's webhook signature, verified as PayPal documents its self-verification (Integrate webhooks, "Verify the
 * signature"): PAYPAL-TRANSMISSION-SIG is the base64 SHA256withRSA signature, by the certificate at PAYPAL-CERT-URL, of
 * `<PAYPAL-TRANSMISSION-ID>|<PAYPAL-TRANSMISSION-TIME>|<webhook id>|<CRC32 of the raw body, unsigned decimal>`.
 * The webhook id is the app's own (configured), so a message for another PayPal webhook never verifies here.
 *
 * The certificate is only taken from PayPal's host (an allow-list of exact origins and PayPal's certificate path, so a
 * forged header cannot send us to a key of the sender's choosing), with its chain verified to a trusted root, every
 * certificate valid now and the leaf issued to a paypal.com host; verified chains are cached by URL. A transmission
 * time outside TRANSMISSION_TOLERANCE_SECONDS is refused as stale; a replay inside it carries the same event id, which
 * the framework deduplicates.
 */
export class PaypalSignatureVerifier {
  readonly #origins: Set<string>;
  readonly #now: () => number;
  #roots: X509Certificate[] | undefined;
  readonly #cache = new Map<string, { chain: X509Certificate[]; until: number }>();
  readonly #loading = new Map<string, Promise<X509Certificate[]>>();

  constructor(private readonly opts: PaypalSignatureOptions) {
    this.#origins = new Set(opts.certOrigins);
    this.#now = opts.now ?? Date.now;
  }

  /** Verifies `request` as sent to the webhook `webhookId`; throws ProviderError naming what does not verify. */
  async verify(request: WebhookRequest, webhookId: string): Promise<void> {
    const header = (name: string) => {
      const v = request.headers[name];
      return typeof v === 'string' && v !== '' ? v : null;
    };
    const id = header('paypal-transmission-id');
    const time = header('paypal-transmission-time');
    const sig = header('paypal-transmission-sig');
    const certUrl = header('paypal-cert-url');
    const algo = header('paypal-auth-algo');
    if (!id || !time || !sig || !certUrl || !algo)
      throw new ProviderError('missing_signature', 'no PayPal transmission signature headers');
    if (algo !== 'SHA256withRSA')
      throw bad(`PAYPAL-AUTH-ALGO ${JSON.stringify(algo.slice(0, 40))} is not SHA256withRSA`);
    // No "|" in the parts we join (the sign base could be shifted), nothing but what PayPal sends.
    if (!/^[A-Za-z0-9-]{1,100}$/.test(id)) throw bad('PAYPAL-TRANSMISSION-ID is malformed');
    const at = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/.test(time) ? Date.parse(time) : NaN;
    if (!Number.isFinite(at)) throw bad('PAYPAL-TRANSMISSION-TIME is not a date-time');
    if (Math.abs(this.#now() - at) > TRANSMISSION_TOLERANCE_SECONDS * 1000)
      throw new ProviderError(
        'stale',
        `PAYPAL-TRANSMISSION-TIME ${time} is outside ${TRANSMISSION_TOLERANCE_SECONDS} s`,
      );
    if (!/^[A-Za-z0-9+/]{16,1400}={0,2}$/.test(sig)) throw bad('PAYPAL-TRANSMISSION-SIG is not base64');
    const chain = await this.certificate(this.allowedCertUrl(certUrl));
    const crc = crc32(Buffer.from(request.rawBody, 'utf8')) >>> 0;
    const signed = Buffer.from(`${id}|${time}|${webhookId}|${crc}`, 'utf8');
    if (!crypto.verify('sha256', signed, chain[0]!.publicKey, Buffer.from(sig, 'base64')))
      throw bad('PAYPAL-TRANSMISSION-SIG does not verify (another key, another webhook, or the body was altered)');
  }

  /** The certificate URL, when it is on an allowed origin and PayPal's certificate path; else bad_signature. */
  private allowedCertUrl(text: string): string {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw bad('PAYPAL-CERT-URL is not a URL');
    }
    const ok =
      text.length <= 500 &&
      this.#origins.has(url.origin) &&
      url.username === '' &&
      url.password === '' &&
      url.search === '' &&
      url.hash === '' &&
      url.pathname.startsWith(CERT_PATH) &&
      /^[A-Za-z0-9_-]{1,200}$/.test(url.pathname.slice(CERT_PATH.length));
    if (!ok) throw bad("PAYPAL-CERT-URL is not a certificate on PayPal's host");
    return url.href;
  }

  /** The verified chain at `url` (leaf first), from the cache or downloaded once however many ask at the same time. */
  private async certificate(url: string): Promise<X509Certificate[]> {
    const kept = this.#cache.get(url);
    if (kept && kept.until > this.#now() && !this.chainProblem(kept.chain)) return kept.chain;
    this.#cache.delete(url);
    let loading = this.#loading.get(url);
    if (!loading) {
      loading = this.download(url).finally(() => this.#loading.delete(url));
      this.#loading.set(url, loading);
    }
    const chain = await loading;
    if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(url, { chain, until: this.#now() + CACHE_MS });
    return chain;
  }

  private async download(url: string): Promise<X509Certificate[]> {
    let text: string;
    try {
      const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(this.opts.timeoutMs) });
      if (res.status >= 500) throw new ProviderError('unreachable', `PayPal certificate: HTTP ${res.status}`);
      if (res.status !== 200) throw bad(`PAYPAL-CERT-URL answered HTTP ${res.status}`);
      text = await res.text();
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      throw new ProviderError('unreachable', `PayPal certificate could not be fetched: ${(e as Error).message}`);
    }
    if (text.length > MAX_CERT_BYTES) throw bad('the certificate at PAYPAL-CERT-URL is too large');
    const blocks = text.match(/-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----/g) ?? [];
    let chain: X509Certificate[];
    try {
      chain = blocks.map((b) => new X509Certificate(b));
    } catch {
      throw bad('the certificate at PAYPAL-CERT-URL does not parse');
    }
    const problem = this.chainProblem(chain);
    if (problem) throw bad(`the certificate at PAYPAL-CERT-URL: ${problem}`);
    return chain;
  }

  /**
   * Why `chain` (leaf first, intermediates after, a root at the end allowed) is not a PayPal signing certificate
   * issued under a trusted root and valid now; null when it is.
   */
  private chainProblem(chain: X509Certificate[]): string | null {
    if (chain.length === 0) return 'no certificate';
    if (chain.length > MAX_CHAIN) return 'too many certificates';
    const roots = this.roots();
    const now = this.#now();
    const isRoot = (c: X509Certificate) => roots.some((r) => r.fingerprint256 === c.fingerprint256);
    const certs = chain.length > 1 && isRoot(chain.at(-1)!) ? chain.slice(0, -1) : chain;
    const leaf = certs[0]!;
    if (leaf.ca || !LEAF_NAME.test(leaf.subject)) return 'the signing certificate is not issued to a paypal.com host';
    for (const [i, cert] of certs.entries()) {
      if (cert.validFromDate.getTime() > now || cert.validToDate.getTime() < now)
        return `certificate ${i + 1} is not valid now`;
      const issuer = certs[i + 1];
      if (issuer && !(issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey)))
        return `certificate ${i + 1} is not issued by the next one`;
    }
    const last = certs.at(-1)!;
    const root = roots.find((r) => last.checkIssued(r) && last.verify(r.publicKey));
    if (!root) return 'the chain does not lead to a trusted root';
    if (root.validFromDate.getTime() > now || root.validToDate.getTime() < now) return 'its root is not valid now';
    return null;
  }

  private roots(): X509Certificate[] {
    this.#roots ??= this.opts.roots.flatMap((pem) => {
      try {
        return [new X509Certificate(pem)];
      } catch {
        return [];
      }
    });
    return this.#roots;
  }
}

const bad = (why: string) => new ProviderError('bad_signature', why);

/**
 * The roots PayPal's signing chains are checked against: the PEM certificates of PAYPAL_CERT_ROOTS_FILE, or Node's
 * bundled Mozilla CA store when it is empty (PayPal's certificates are issued under a public CA). Throws naming the
 * variable when the file cannot be read or holds no certificate, so the service refuses to start.
 */
export function paypalCertRoots(file: string): string[] {
  if (!file) return [...rootCertificates];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`invalid configuration: PAYPAL_CERT_ROOTS_FILE: ${(e as Error).message}`);
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----/g) ?? [];
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch {
      throw new Error('invalid configuration: PAYPAL_CERT_ROOTS_FILE: a certificate does not parse');
    }
  }
  if (blocks.length === 0) throw new Error('invalid configuration: PAYPAL_CERT_ROOTS_FILE: holds no PEM certificate');
  return blocks;
}
