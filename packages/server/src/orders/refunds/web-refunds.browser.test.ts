import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../testing/service.js';
import { go, mainText, signIn, startBrowser, waitForText, type TestBrowser } from '../../testing/console/console.js';
import { SANDBOX, appWithProducts, payOk, placeOk, webOrder } from '../../testing/orders/orders.js';

/** The console's order page shows a web payment's refunds: each refund order, its kind and provider, the total. */
describe('web refunds in the console (Chromium)', () => {
  let svc: TestService;
  let browser: TestBrowser;
  before(async () => {
    svc = await startTestService(SANDBOX);
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it("lists a payment's partial refund and lost dispute with the amount refunded, and the status history names them", async () => {
    const app = await appWithProducts(svc);
    const order = await placeOk(svc, webOrder(app.appId));
    await payOk(svc, order.trxNo);
    const base = { appId: app.appId, trxNo: order.trxNo, provider: 'stripe', currency: 'USD', refundedAt: Date.now() };
    const first = await svc.services.orders.webRefunds.apply({
      ...base,
      providerRefundId: 're_console_1',
      amountMinor: 500,
      kind: 'refund',
    });
    const lost = await svc.services.orders.webRefunds.apply({
      ...base,
      providerRefundId: 'dp_console_1',
      amountMinor: 1000,
      kind: 'dispute_lost',
    });
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/orders/${order.trxNo}`);
    await waitForText(page, 'main', /Refunded at the provider/);
    const text = await mainText(page);
    assert.match(text, new RegExp(`${first.refundTrxNo} 5 USD \\(refund at stripe\\)`));
    assert.match(text, new RegExp(`${lost.refundTrxNo} 10 USD \\(dispute lost at stripe\\)`));
    assert.match(text, /Refunded at the provider\s+15 USD/);
    assert.match(text, /partly refunded: 5\.00 USD at stripe \(re_console_1\)/);
    assert.match(text, /dispute lost: 10\.00 USD at stripe \(dp_console_1\)/);
    // The refund order links back to the payment.
    await page.click(`ul.refunds a[href$="/orders/${first.refundTrxNo}"]`);
    await waitForText(page, 'main', new RegExp(`Order ${first.refundTrxNo}`));
    assert.deepEqual(errors, []);
    await page.close();
  });
});
