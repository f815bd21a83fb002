/**
 * The game-hosted endpoints the platform calls, all behind the SDK's 5.3 verifier:
 * payment/refund callback (4.7), role query (4.8), role list (4.9), pre-order
 * check (4.10) and the account cancellation callback (6). Only verified calls
 * get here.
 */
import {
  type Answer,
  type CallbackHandler,
  type CancellationNotification,
  type Notification,
  type VerifiedCall,
  PayloadParseError,
  PreOrderCode,
  TrxType,
  acceptNotification,
  allowPreOrder,
  blockPreOrder,
  parseCancellationNotification,
  parseNotification,
  parsePreOrderCheck,
  parseRoleListQuery,
  parseRoleQuery,
  rejectNotification,
  roleListAnswer,
  roleQueryAnswer,
} from '@game-platform/sdk';
import type { Catalog } from './catalog.js';
import type { GameStore } from './store.js';

/** Where each call is served; the operator registers these URLs with the platform. */
export const PLATFORM_PATHS = {
  paymentCallback: '/pay/callback',
  roleQuery: '/game/role',
  roleList: '/game/roles',
  preOrderCheck: '/game/pre-order',
  cancellationCallback: '/account/cancel',
} as const;

/** How many verified calls of each kind this process has handled (for /ops/status). */
export interface CallCounters {
  payment: number;
  refund: number;
  otherNotification: number;
  roleQuery: number;
  roleList: number;
  preOrderAllowed: number;
  preOrderBlocked: number;
  cancellation: number;
  /** Calls refused before any handler: signature, timestamp, key id, replay, size. */
  refused: number;
}

export const newCounters = (): CallCounters => ({
  payment: 0,
  refund: 0,
  otherNotification: 0,
  roleQuery: 0,
  roleList: 0,
  preOrderAllowed: 0,
  preOrderBlocked: 0,
  cancellation: 0,
  refused: 0,
});

export interface PlatformCallDeps {
  store: GameStore;
  catalog: Catalog;
  counters: CallCounters;
  log: (line: string) => void;
}

const badRequest = (e: PayloadParseError): Answer => ({
  status: 400,
  body: { code: 400, msg: 'bad request', detail: e.message },
});
const fmt = (items: Record<string, number>): string =>
  Object.entries(items)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ') || 'nothing';

export function platformCallHandler(deps: PlatformCallDeps): CallbackHandler {
  const { store, catalog, counters, log } = deps;

  /**
   * A notification endpoint (4.7, 6): a body that does not parse is refused in the notification answer's form (400),
   * not the plain one the other calls get.
   */
  const notificationRoute =
    <T>(what: string, parse: (json: unknown) => T, handle: (n: T) => Answer) =>
    (call: VerifiedCall): Answer => {
      let n: T;
      try {
        n = parse(call.json);
      } catch (e) {
        if (e instanceof PayloadParseError) return rejectNotification(`bad ${what}: ${e.message}`, 400);
        throw e;
      }
      return handle(n);
    };

  /** 4.7: a payment (2.4) or refund (2.5); told apart by trxType only (2.4 rule 1). */
  function notification(n: Notification): Answer {
    switch (n.trxType) {
      case TrxType.PAYMENT: {
        counters.payment++;
        const r = store.recordPayment(n, catalog);
        if (!r.first) {
          log(`payment trxNo ${n.trxNo}: repeated notification, already ${r.state}`);
          return acceptNotification('already handled');
        }
        const unknown =
          r.unknownProducts.length > 0
            ? ` (unknown products, nothing granted for them: ${r.unknownProducts.join(', ')})`
            : '';
        log(
          `payment trxNo ${n.trxNo} for user ${n.userId}: ${r.state === 'granted' ? `granted ${fmt(r.items)}` : r.state}${unknown}`,
        );
        return acceptNotification(r.state);
      }
      case TrxType.REFUND: {
        counters.refund++;
        const r = store.recordRefund(n);
        if (!r.first) {
          log(`refund trxNo ${n.trxNo}: repeated notification, already ${r.state}`);
          return acceptNotification('already handled');
        }
        const owed = Object.keys(r.owed).length > 0 ? `; owed (spent) ${fmt(r.owed)}` : '';
        log(
          `refund trxNo ${n.trxNo} of payment ${n.originalTrxNo}: ${r.state === 'revoked' ? `revoked ${fmt(r.revoked)}${owed}` : r.state}`,
        );
        return acceptNotification(r.state);
      }
      default:
        // A trxType this game does not know yet (9): keep it, grant nothing.
        counters.otherNotification++;
        store.recordOther(n);
        log(`notification with unknown trxType ${n.unknownTrxType} kept (trxNo ${n.trxNo ?? '-'})`);
        return acceptNotification('kept');
    }
  }

  function roleQuery(call: VerifiedCall): Answer {
    const { roleId, serverId } = parseRoleQuery(call.query);
    counters.roleQuery++;
    const role = store.role(roleId, serverId);
    if (!role)
      return {
        status: 404,
        body: { code: 404, msg: 'Role not found.', detail: `no role ${roleId} on server ${serverId}` },
      };
    return roleQueryAnswer({
      userId: role.userId,
      roleId: role.roleId,
      name: role.name,
      avatar: role.avatar,
      roleLv: role.roleLv,
      serverId: role.serverId,
      serverName: role.serverName,
    });
  }

  function roleList(call: VerifiedCall): Answer {
    const { userId, serverId } = parseRoleListQuery(call.query);
    counters.roleList++;
    // No role: 401 with empty results (4.9), which roleListAnswer does.
    return roleListAnswer(
      store.rolesOf(userId, serverId).map((r) => ({
        roleId: r.roleId,
        name: r.name,
        avatar: r.avatar,
        roleLv: r.roleLv,
        serverId: r.serverId,
        serverName: r.serverName,
      })),
    );
  }

  /** 4.10: advisory; the limit counts units of granted, unrefunded payments plus this order's quantity. */
  function preOrderCheck(call: VerifiedCall): Answer {
    const check = parsePreOrderCheck(call.json);
    const block = (code: number, detail: string): Answer => {
      counters.preOrderBlocked++;
      log(`pre-order check blocked (${code}): ${detail}`);
      return blockPreOrder(code, { detail });
    };
    if (!store.role(check.roleId, check.serverId))
      return block(PreOrderCode.INVALID_ROLE_ID, `no role ${check.roleId} on server ${check.serverId}`);
    const product = catalog.get(check.productSkuCode);
    if (!product) return block(PreOrderCode.PRODUCT_NOT_FOUND, `unknown product ${check.productSkuCode}`);
    if (product.limitPerRole !== null) {
      const held = store.purchasedUnits(check.roleId, check.serverId, check.productSkuCode);
      if (held + check.quantity > product.limitPerRole) {
        return block(
          PreOrderCode.PURCHASE_LIMIT_REACHED,
          `${check.productSkuCode}: limit ${product.limitPerRole} per role, role holds ${held}, asked ${check.quantity}`,
        );
      }
    }
    counters.preOrderAllowed++;
    log(`pre-order check allowed: ${check.quantity} x ${check.productSkuCode} for role ${check.roleId}`);
    return allowPreOrder();
  }

  function cancellation(c: CancellationNotification): Answer {
    counters.cancellation++;
    const r = store.recordCancellation(c);
    log(
      r.first
        ? `account ${c.userId} cancelled: ${r.rolesRemoved} role(s) and their items deleted`
        : `cancellation ${c.notifyId}: repeated notification`,
    );
    return acceptNotification(r.first ? 'cancelled' : 'already handled');
  }

  const routes: Record<string, (call: VerifiedCall) => Answer> = {
    [`POST ${PLATFORM_PATHS.paymentCallback}`]: notificationRoute('notification', parseNotification, notification),
    [`GET ${PLATFORM_PATHS.roleQuery}`]: roleQuery,
    [`GET ${PLATFORM_PATHS.roleList}`]: roleList,
    [`POST ${PLATFORM_PATHS.preOrderCheck}`]: preOrderCheck,
    [`POST ${PLATFORM_PATHS.cancellationCallback}`]: notificationRoute(
      'cancellation',
      parseCancellationNotification,
      cancellation,
    ),
  };

  return (call) => {
    const route = routes[`${call.method} ${call.path}`];
    if (!route) return { status: 404, body: { code: 404, msg: 'not found', detail: `${call.method} ${call.path}` } };
    try {
      return route(call);
    } catch (e) {
      if (e instanceof PayloadParseError) return badRequest(e);
      throw e;
    }
  };
}
