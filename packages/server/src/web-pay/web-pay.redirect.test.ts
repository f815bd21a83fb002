import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { returnUrlOf, type PaymentChannelAdapter, type PaymentStart } from '../orders/payments/channels/channel.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { count } from '../testing/orders/orders.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/**
 * A provider-hosted payment page on loopback, as a real channel adapter would use one: its checkout sends the
 * browser back to the return URL; the result comes later, as the provider's webhook would report it.
 */
class FixtureProvider implements PaymentChannelAdapter {
  readonly name = 'fixture-provider';
  appId = -1;
  readonly opened: Array<{ trxNo: number; returnUrl: string | null }> = [];
  constructor(private readonly base: () => string) {}

  supports(channel: number, appId: number): boolean {
    return channel === 5 && appId === this.appId;
  }

  async startPayment(order: OrderRow, _items: unknown, ctx: { returnUrl: string | null }): Promise<PaymentStart> {
    this.opened.push({ trxNo: order.trx_no, returnUrl: ctx.returnUrl });
    const back = returnUrlOf(ctx.returnUrl!, order.trx_no);
    const url = `${this.base()}/checkout?order=${order.trx_no}&return=${encodeURIComponent(back)}`;
    return { bankTrxNo: `fx-${order.trx_no}`, step: { kind: 'redirect', channel: 'fixture', url } };
  }
}

async function startCheckout(): Promise<{ url: string; visits: string[]; close(): Promise<void> }> {
  const visits: string[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://provider');
    visits.push(u.pathname + u.search);
    res.writeHead(303, { location: u.searchParams.get('return') ?? '/' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    visits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A channel whose step is a provider-hosted page: the return URL, and the result arriving asynchronously. */
describe('web payment page: a redirect step (provider-hosted page)', () => {
  let f: WebPayFixture;
  let browser: TestBrowser;
  let checkout: Awaited<ReturnType<typeof startCheckout>>;
  const provider = new FixtureProvider(() => checkout.url);
  before(async () => {
    checkout = await startCheckout();
    [f, browser] = await Promise.all([startWebPay({}, { channelAdapters: [provider] }), startBrowser()]);
    provider.appId = f.overseas.appId;
  });
  after(async () => {
    await browser?.close();
    await f?.close();
    await checkout?.close();
  });

  async function webView(roleId: string) {
    const link = await launchLink(f, f.overseas, { roleId, serverId: 's1' });
    f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
    return link;
  }
  const lines = { products: [{ productCode: 'pass', quantity: 1 }] };

  it("refuses a return URL off the page's origin unless the app lists it, writing nothing", async () => {
    const page = new PageClient(f.svc, f.overseas.clientId);
    await page.open((await webView('ret')).url);
    await page.context();
    const before = await count(f.svc, 'orders');
    for (const returnUrl of [
      'https://evil.example.com/pay',
      'javascript:alert(1)',
      'http://game.example.com/paid',
      'https://game.example.com/paid/../other',
      `${f.svc.url}/pay#x`,
    ]) {
      const res = await page.request('POST', '/orders', { ...lines, returnUrl });
      assert.equal(res.status, 400, `${returnUrl}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, /returnUrl/);
    }
    assert.equal(await count(f.svc, 'orders'), before);

    const put = await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, {
      returnUrls: ['https://game.example.com/paid'],
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const res = await page.request('POST', '/orders', {
      ...lines,
      returnUrl: 'https://game.example.com/paid?from=shop',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.payment.kind, 'redirect');
    const trxNo = res.body.data.order.trxNo;
    const back = new URL(new URL(res.body.data.payment.url).searchParams.get('return')!);
    assert.equal(`${back.origin}${back.pathname}`, 'https://game.example.com/paid');
    assert.deepEqual([back.searchParams.get('from'), back.searchParams.get('trxNo')], ['shop', String(trxNo)]);
  });

  it('sends the browser to the provider, back to the page, and shows the result when it arrives', async () => {
    const link = await webView('redirected');
    const { page, errors } = await browser.newPage();
    await page.goto(link.url);
    await waitForText(page, '#role-name', /redirected/);
    await page.click('#lang-en');
    await page.fill('.product[data-code="gems_100"] input', '2');
    await waitForText(page, '#quote-total', /\$9\.98/);
    await page.click('#btn-pay');
    // Through the provider's page and back: the page's own return URL with the order's trxNo.
    await page.waitForURL(/\?trxNo=\d+$/);
    const trxNo = Number(new URL(page.url()).searchParams.get('trxNo'));
    assert.ok(checkout.visits.some((v) => v.startsWith(`/checkout?order=${trxNo}&`)));
    assert.equal(provider.opened.at(-1)!.returnUrl, `${f.svc.url}/pay/${f.overseas.clientId}`);
    await waitForText(page, '#result-status', /Waiting for the payment/);
    assert.equal(await page.locator('#result-trx').innerText(), String(trxNo));

    // The provider's result arrives later (its webhook, authenticated by the adapter): the result view follows.
    await f.svc.services.orders.orders.applyChannelEvent({ kind: 'paid', trxNo, bankTrxNo: 'fx-paid', client: null });
    await waitForText(page, '#result-status', /Paid/);
    assert.match(await page.locator('#result-amount').innerText(), /\$9\.98/);
    await f.game.waitFor(() => f.game.requests.some((r) => r.url === '/cb' && JSON.parse(r.body).trxNo === trxNo));
    assert.deepEqual(errors, []);
    await page.close();
  });
});
