import type { TestEventKind } from './event-types.js';

export type { TestEventKind } from './event-types.js';

/**
 * Bodies of operator test events (`stripe trigger` style): shaped like the
 * real notifications of 2.4 and 2.5 and like the cancellation callback, with
 * sample values a game can recognise: trxNo in the 9e12 range, outTrxNo,
 * userId and role prefixed `test-`. Signed and delivered exactly like real ones.
 */

/** Test trxNo = TEST_TRX_BASE + event id, far above real order numbers. */
export const TEST_TRX_BASE = 9_000_000_000_000;

const products = [{ productCode: 'test.gems.100', quantity: 1, channelSkuCode: 'test.sku.gems.100' }];

export function testEventBody(
  kind: TestEventKind,
  o: { notifyId: number; appId: number; serverId: string | null; now: number },
): object {
  const attach = { gameServerId: o.serverId ?? 'test-server', gameRoleId: 'test-role-1', gameExt: 'test' };
  const trxNo = TEST_TRX_BASE + o.notifyId;
  switch (kind) {
    case 'payment': // 2.4
      return {
        notifyId: o.notifyId,
        notifyTime: o.now,
        appId: o.appId,
        userId: 'test-user-1',
        trxNo,
        trxType: 0,
        outTrxNo: `test-${o.notifyId}`,
        platform: 2,
        channel: 2,
        paymentType: 0,
        products,
        currency: 'USD',
        region: 'US',
        clientAmount: 0.99,
        clientCurrency: 'USD',
        clientRegion: 'US',
        totalAmount: 0.99,
        status: 0,
        successTime: o.now,
        attach,
        bankTrxNo: `test-bank-${o.notifyId}`,
      };
    case 'refund': // 2.5
      return {
        notifyId: o.notifyId,
        appId: o.appId,
        notifyTime: o.now,
        userId: 'test-user-1',
        trxNo,
        originalTrxNo: trxNo - 1,
        trxType: 2,
        platform: 2,
        channel: 2,
        paymentType: 0,
        products,
        currency: 'USD',
        totalAmount: 0.99,
        status: 0,
        successTime: o.now,
        attach,
      };
    case 'cancellation': // 6: body not shown by the spec; the accounts area's shape (accounts/cancellation.service.ts)
      return {
        notifyId: o.notifyId,
        notifyTime: o.now,
        eventType: 'account_cancellation',
        appId: o.appId,
        userId: 'test-user-1',
        userCode: 'test-user-code-1',
        requestTime: o.now - 7 * 86_400_000,
        cancelTime: o.now,
      };
  }
}
