import { AppError } from '../../errors/app-error.js';
import type { AppRecord } from '../../apps/apps.service.js';
import type { CallLogs, GameCallsClient } from '../../game-calls/game-calls.js';

export interface OrderToCheck {
  userId: string;
  roleId: string;
  serverId: string;
  products: Array<{ productCode: string; quantity: number }>;
  extras?: string;
}

/**
 * The game's say before a client order exists: the role query (4.8) must
 * answer the role with the token's user id, then the pre-order check (4.10)
 * must allow each product line with its quantity. Both calls are retried once
 * when the game cannot be reached (8); a final failure fails the order and
 * nothing is written (but the call log). The call log's writes are collected
 * in `logs` for the caller to await before it answers.
 */
export async function checkWithGame(
  gameCalls: Pick<GameCallsClient, 'roleQuery' | 'preOrderCheck'>,
  app: AppRecord,
  order: OrderToCheck,
  logs: CallLogs = {},
): Promise<void> {
  const role = await gameCalls.roleQuery(app, { roleId: order.roleId, serverId: order.serverId }, logs);
  if (!role.ok) {
    if (role.reason === 'unreachable') throw new AppError('GAME_UNREACHABLE', `role query (4.8): ${role.detail}`);
    throw new AppError('ROLE_QUERY_FAILED', `role query (4.8): ${role.detail}`);
  }
  if (role.role.userId !== order.userId) {
    throw new AppError(
      'ROLE_NOT_OWNED',
      `role ${order.roleId} on server ${order.serverId} belongs to another user than the token's (4.8)`,
    );
  }
  for (const line of order.products) {
    const check = await gameCalls.preOrderCheck(
      app,
      {
        roleId: order.roleId,
        serverId: order.serverId,
        productSkuCode: line.productCode,
        quantity: line.quantity,
        ...(order.extras !== undefined ? { extras: order.extras } : {}),
      },
      logs,
    );
    if (check.allowed) continue;
    if (check.reason === 'unreachable')
      throw new AppError('GAME_UNREACHABLE', `pre-order check (4.10): ${check.detail}`);
    // 4.10: the game's code, msg and detail go to the client; without a code no reason is shown.
    throw new AppError(
      'PRE_ORDER_BLOCKED',
      check.detail ?? `the game blocked the order of ${line.productCode} (HTTP ${check.httpStatus})`,
      {
        ...(check.code !== null && check.msg !== null ? { msg: check.msg } : {}),
        data: {
          code: check.code,
          msg: check.msg,
          detail: check.detail,
          meaning: check.meaning,
          productCode: line.productCode,
        },
      },
    );
  }
}
