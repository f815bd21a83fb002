import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  Channel,
  LoginType,
  OrderStatus,
  PaymentType,
  SupplyStatus,
  parseCancellationNotification,
  parseNotification,
  PayloadParseError,
  Platform,
  TrxType,
  type Notification,
  type PaymentNotification,
  type RefundNotification,
} from '../index.js';

const attach = { gameServerId: 's1', gameRoleId: 'r1', gameExt: 'ext' };
const products = [{ productCode: 'gems', quantity: 2, channelSkuCode: 'sku.gems' }];

/** 2.4, as the platform sends it. */
const payment = {
  notifyId: 11,
  notifyTime: 1700000000123,
  appId: 1001,
  userId: '90001',
  trxNo: 5001,
  trxType: 0,
  outTrxNo: 'o-1',
  platform: 1,
  channel: 1,
  paymentType: 0,
  products,
  currency: 'USD',
  region: 'US',
  clientAmount: 0.99,
  clientCurrency: 'USD',
  clientRegion: 'US',
  totalAmount: 0.99,
  status: 0,
  successTime: 1700000000100,
  attach,
  bankTrxNo: 'b-1',
};

/** 2.5. */
const refund = {
  notifyId: 12,
  appId: 1001,
  notifyTime: 1700000001000,
  userId: '90001',
  trxNo: 6001,
  originalTrxNo: 5001,
  trxType: 2,
  platform: 1,
  channel: 1,
  paymentType: 0,
  products,
  currency: 'USD',
  totalAmount: 0.99,
  status: 0,
  successTime: 1700000000900,
  attach,
};

function parseError(input: unknown): PayloadParseError {
  try {
    parseNotification(input);
  } catch (e) {
    assert.ok(e instanceof PayloadParseError, String(e));
    return e;
  }
  assert.fail('expected a PayloadParseError');
}

describe('parseNotification', () => {
  it('parses a payment (2.4), every field typed, from an object, JSON text or bytes', () => {
    for (const input of [payment, JSON.stringify(payment), Buffer.from(JSON.stringify(payment))]) {
      const n = parseNotification(input);
      assert.equal(n.kind, 'payment');
      if (n.trxType !== TrxType.PAYMENT) assert.fail('not a payment');
      const { raw, ...typed } = n;
      assert.deepEqual(typed, { ...payment, kind: 'payment' });
      assert.deepEqual(raw, payment);
    }
  });

  it('parses a refund (2.5): originalTrxNo, currency as a string or a number, attach nullable', () => {
    const n = parseNotification(refund);
    assert.equal(n.kind, 'refund');
    if (n.kind !== 'refund') return;
    assert.equal(n.trxNo, 6001);
    assert.equal(n.originalTrxNo, 5001);
    assert.equal(n.currency, 'USD');
    assert.equal('outTrxNo' in n, false);
    const numeric = parseNotification({ ...refund, currency: 840, attach: null });
    assert.equal(numeric.kind === 'refund' && numeric.currency, 840);
    assert.equal(numeric.kind === 'refund' && numeric.attach, null);
    const noAttach = parseNotification({ ...refund, attach: undefined });
    assert.equal(noAttach.kind === 'refund' && noAttach.attach, null);
  });

  it('nullable payment fields may be null or absent; decimals may come as strings', () => {
    const web = {
      ...payment,
      outTrxNo: null,
      clientAmount: null,
      clientCurrency: null,
      clientRegion: undefined,
      bankTrxNo: undefined,
      attach: null,
      totalAmount: '4.50',
      products: [
        { productCode: 'a', quantity: 1, channelSkuCode: null },
        { productCode: 'b', quantity: 3 },
      ],
    };
    const n = parseNotification(web) as PaymentNotification;
    assert.equal(n.outTrxNo, null);
    assert.equal(n.clientAmount, null);
    assert.equal(n.clientRegion, null);
    assert.equal(n.bankTrxNo, null);
    assert.equal(n.attach, null);
    assert.equal(n.totalAmount, 4.5);
    assert.deepEqual(
      n.products.map((p) => p.channelSkuCode),
      [null, null],
    );
  });

  it('tolerates unknown channel, platform, paymentType and status values and unknown fields (9)', () => {
    const n = parseNotification({
      ...payment,
      channel: 99,
      platform: 42,
      paymentType: 17,
      status: 9,
      newField: { x: 1 },
    });
    assert.equal(n.kind, 'payment');
    if (n.kind !== 'payment') return;
    assert.equal(n.channel, 99);
    assert.equal(n.platform, 42);
    assert.notEqual(n.channel, Channel.IOS_APP_STORE);
    assert.notEqual(n.platform, Platform.IOS);
    assert.deepEqual(n.raw.newField, { x: 1 });
  });

  it('an unknown trxType becomes the unknown variant, neither dropped nor mistaken', () => {
    for (const trxType of [TrxType.SUPPLEMENT, 3, 77]) {
      const n = parseNotification({ ...payment, trxType });
      assert.equal(n.kind, 'unknown');
      assert.equal(n.trxType, null);
      assert.equal(n.kind === 'unknown' && n.unknownTrxType, trxType);
      assert.equal(n.notifyId, 11);
      assert.equal(n.trxNo, 5001);
      assert.equal(n.raw.outTrxNo, 'o-1');
    }
    const bare = parseNotification({ trxType: 5 });
    assert.deepEqual([bare.kind, bare.notifyId, bare.trxNo], ['unknown', null, null]);
  });

  it('a refund body can never parse as a payment: trxType decides, not the fields present', () => {
    const n = parseNotification({ ...payment, trxType: 2, originalTrxNo: 5000 });
    assert.equal(n.kind, 'refund');
    assert.equal(parseError({ ...refund, trxType: 0 }).field, 'region');
  });

  it('structurally invalid bodies raise PayloadParseError naming the field', () => {
    const cases: [unknown, string, RegExp][] = [
      ['not json', 'body', /JSON/],
      ['[1]', 'body', /object/],
      [null, 'body', /object/],
      [{ ...payment, trxType: undefined }, 'trxType', /required/],
      [{ ...payment, trxType: '0' }, 'trxType', /number/],
      [{ ...payment, trxType: 0.5 }, 'trxType', /integer/],
      [{ ...payment, trxNo: 2 ** 53 + 2 }, 'trxNo', /precision/],
      [{ ...payment, trxNo: '5001' }, 'trxNo', /number/],
      [{ ...payment, userId: 90001 }, 'userId', /string/],
      [{ ...payment, notifyId: undefined }, 'notifyId', /required/],
      [{ ...payment, products: {} }, 'products', /array/],
      [{ ...payment, products: [null] }, 'products.0', /object/],
      [{ ...payment, products: [{ productCode: 'a' }] }, 'products.0.quantity', /required/],
      [{ ...payment, attach: 'r=1' }, 'attach', /object/],
      [{ ...payment, attach: { ...attach, gameRoleId: 7 } }, 'attach.gameRoleId', /string/],
      [{ ...payment, totalAmount: 'lots' }, 'totalAmount', /decimal/],
      [{ ...payment, totalAmount: undefined }, 'totalAmount', /required/],
      [{ ...payment, region: undefined }, 'region', /required/],
      [{ ...refund, originalTrxNo: undefined }, 'originalTrxNo', /required/],
      [{ ...refund, currency: undefined }, 'currency', /required/],
      [{ ...refund, currency: true }, 'currency', /string or a number/],
    ];
    for (const [input, field, problem] of cases) {
      const e = parseError(input);
      assert.equal(e.field, field, JSON.stringify(input).slice(0, 80));
      assert.match(e.problem, problem);
      assert.equal(e.message, `${e.field}: ${e.problem}`);
    }
  });

  it('types: switching on trxType narrows, and a refund is not assignable to a payment', () => {
    const grant = (p: PaymentNotification): number => p.trxNo;
    const revoke = (r: RefundNotification): number => r.originalTrxNo;
    const handle = (n: Notification): string => {
      switch (n.trxType) {
        case TrxType.PAYMENT:
          return `grant ${grant(n)} ${n.outTrxNo}`;
        case TrxType.REFUND:
          return `revoke ${revoke(n)}`;
        default:
          // @ts-expect-error an unknown notification is neither a payment nor a refund
          grant(n);
          return `unknown ${n.unknownTrxType}`;
      }
    };
    // @ts-expect-error a refund can never be handled as a payment
    const wrong = (r: RefundNotification) => grant(r);
    assert.equal(typeof wrong, 'function');
    assert.equal(handle(parseNotification(payment)), 'grant 5001 o-1');
    assert.equal(handle(parseNotification(refund)), 'revoke 5001');
    assert.equal(handle(parseNotification({ ...payment, trxType: 9 })), 'unknown 9');
  });
});

describe('parseCancellationNotification', () => {
  const base = { notifyId: 3, notifyTime: 1700000000000, appId: 1001, userId: '90001' };

  it('parses the accounts body (eventType) and the delivery test body (type), keeping the rest in raw', () => {
    const full = parseCancellationNotification({
      ...base,
      eventType: 'account_cancellation',
      userCode: 'AB12',
      requestTime: 1,
      cancelTime: 2,
    });
    assert.deepEqual(
      { ...full, raw: undefined },
      { kind: 'cancellation', ...base, userCode: 'AB12', requestTime: 1, cancelTime: 2, raw: undefined },
    );
    const test = parseCancellationNotification(JSON.stringify({ ...base, type: 'cancellation' }));
    assert.deepEqual(
      [test.userCode, test.requestTime, test.cancelTime, test.raw.type],
      [null, null, null, 'cancellation'],
    );
  });

  it('refuses other events and bodies missing the user', () => {
    const fieldOf = (input: unknown): string => {
      try {
        parseCancellationNotification(input);
      } catch (e) {
        assert.ok(e instanceof PayloadParseError);
        return e.field;
      }
      return 'ok';
    };
    assert.equal(fieldOf({ ...base, eventType: 'account_created' }), 'eventType');
    assert.equal(fieldOf({ ...base, type: 'payment' }), 'type');
    assert.equal(fieldOf({ ...payment }), 'trxType');
    assert.equal(fieldOf({ ...base, userId: undefined }), 'userId');
    assert.equal(fieldOf({ ...base, appId: '1001' }), 'appId');
    assert.equal(fieldOf('{'), 'body');
  });
});

describe('enumerations (2.2, 2.6, 2.7)', () => {
  it('carry the spec values', () => {
    assert.deepEqual(TrxType, { PAYMENT: 0, SUPPLEMENT: 1, REFUND: 2 });
    assert.deepEqual(Object.values(Platform), [1, 2, 3, 4, 5, 7]);
    assert.deepEqual(Object.values(PaymentType), [0, 1, 2, 3]);
    assert.deepEqual(Object.values(OrderStatus), [0, 1, 2, 3, 4]);
    assert.deepEqual(Object.values(Channel), [1, 2, 3, 4, 5, 15]);
    assert.deepEqual(Object.values(LoginType), [0, 2, 3, 4, 5, 6, 7, 9, 10, 11]);
    assert.equal(SupplyStatus.PENDING, 1);
  });
});
