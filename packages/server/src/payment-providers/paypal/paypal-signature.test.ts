import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { makePaypalChain, type PaypalTestChain } from '../../testing/paypal-certs.js';
import { PaypalFake } from '../../testing/paypal-fake.js';
import { ProviderError } from '../provider.js';
import { PaypalSignatureVerifier, paypalCertRoots } from './paypal-signature.js';
import { paypalCertOrigins } from './paypal.js';

/**
 * PayPal's self-verification on its own (paypal-signature.ts), against certificates served by the fake on loopback:
 * the sign base, the certificate chain's checks one by one, the cache, and what a certificate host that cannot be
 * reached means (unreachable: PayPal is asked to retry).
 */
describe('PayPal webhook signature: self-verification and the certificate checks', () => {
  let fake: PaypalFake;
  let roots: string[];
  const webhookId = '8PT597110X687430LKGECATA';
  const body = JSON.stringify(PaypalFake.event('PAYMENT.CAPTURE.COMPLETED', { id: 'X' }));
  before(async () => {
    fake = await PaypalFake.start();
    roots = paypalCertRoots(fake.rootFile);
  });
  after(async () => {
    await fake?.close();
  });

  const verifier = (now?: () => number) =>
    new PaypalSignatureVerifier({ certOrigins: [fake.url], roots, timeoutMs: 2000, ...(now ? { now } : {}) });
  const request = (headers: Record<string, string>, rawBody = body) => ({
    rawBody,
    headers,
    body: JSON.parse(rawBody),
  });

  async function refused(p: Promise<unknown>, code: string, message: RegExp) {
    await assert.rejects(p, (e: unknown) => {
      assert.ok(e instanceof ProviderError, String(e));
      assert.equal(e.code, code);
      assert.match(e.message, message);
      return true;
    });
  }

  it('verifies what PayPal signs, and downloads a certificate once', async () => {
    const v = verifier();
    await v.verify(request(fake.sign(body, { webhookId })), webhookId);
    await v.verify(request(fake.sign(body, { webhookId })), webhookId);
    assert.equal(fake.certFetches.get(new URL(fake.certUrl).pathname), 1, 'cached');
    // The root itself at the end of the served chain is allowed.
    const withRoot = fake.serveCertificate(`${fake.chain.chainPem}${fake.chain.rootPem}`);
    await v.verify(request(fake.sign(body, { webhookId, certUrl: withRoot })), webhookId);
  });

  it('refuses each certificate that is not a PayPal signing certificate under a trusted root, valid now', async () => {
    const v = verifier();
    const serve = (c: PaypalTestChain) => fake.serveCertificate(c.chainPem);
    const signedWith = (c: PaypalTestChain, certUrl: string) =>
      v.verify(request(fake.sign(body, { webhookId, certUrl, key: c.signingKey })), webhookId);
    const stranger = await makePaypalChain({ name: 'Stranger' });
    await refused(signedWith(stranger, serve(stranger)), 'bad_signature', /trusted root/);
    const expired = await makePaypalChain({
      notBefore: new Date(Date.now() - 3 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    await refused(signedWith(expired, serve(expired)), 'bad_signature', /not valid now/);
    const notPaypal = await makePaypalChain({ commonName: 'messageverificationcerts.paypal.com.evil.example' });
    await refused(signedWith(notPaypal, serve(notPaypal)), 'bad_signature', /paypal\.com host/);
    // Only the leaf of the trusted chain, without its intermediate: the chain does not reach the root.
    const leafOnly = fake.serveCertificate(fake.chain.chainPem.split(/(?<=-----END CERTIFICATE-----)/)[0]!);
    await refused(signedWith(fake.chain, leafOnly), 'bad_signature', /trusted root/);
    await refused(
      signedWith(fake.chain, fake.serveCertificate('not a certificate')),
      'bad_signature',
      /no certificate/,
    );
    // A transmission for another webhook, or its body altered.
    await refused(
      v.verify(request(fake.sign(body, { webhookId: 'OTHER' })), webhookId),
      'bad_signature',
      /does not verify/,
    );
    await refused(
      v.verify(request(fake.sign(body, { webhookId }), body.replace('"X"', '"Y"')), webhookId),
      'bad_signature',
      /does not verify/,
    );
  });

  it('refuses a stale or future transmission time, and asks PayPal to retry when its certificate cannot be fetched', async () => {
    const later = verifier(() => Date.now() + 301_000);
    await refused(later.verify(request(fake.sign(body, { webhookId })), webhookId), 'stale', /outside 300 s/);
    const earlier = verifier(() => Date.now() - 301_000);
    await refused(earlier.verify(request(fake.sign(body, { webhookId })), webhookId), 'stale', /outside/);
    const down = new PaypalSignatureVerifier({ certOrigins: ['http://127.0.0.1:9'], roots, timeoutMs: 2000 });
    const certUrl = 'http://127.0.0.1:9/v1/notifications/certs/CERT-down';
    await refused(down.verify(request(fake.sign(body, { webhookId, certUrl })), webhookId), 'unreachable', /fetched/);
  });

  it('takes its settings as configured, refusing bad ones at start', () => {
    assert.deepEqual(paypalCertOrigins('https://api.paypal.com, http://127.0.0.1:8080'), [
      'https://api.paypal.com',
      'http://127.0.0.1:8080',
    ]);
    for (const bad of ['http://api.paypal.com', 'https://api.paypal.com/v1', 'api.paypal.com', 'https://a.com,'])
      assert.throws(() => paypalCertOrigins(bad), /PAYPAL_CERT_URL_ORIGINS/);
    assert.ok(paypalCertRoots('').length > 50, "Node's bundled roots");
    const empty = `${fake.rootFile}.empty`;
    writeFileSync(empty, 'nothing here');
    assert.throws(() => paypalCertRoots(empty), /PAYPAL_CERT_ROOTS_FILE: holds no PEM certificate/);
    assert.throws(() => paypalCertRoots('/nonexistent/roots.pem'), /PAYPAL_CERT_ROOTS_FILE/);
  });
});
