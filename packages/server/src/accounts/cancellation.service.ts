import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { enqueueEvent } from '../delivery/outbox.js';
import { AppError } from '../errors/app-error.js';
import { iso } from './accounts.format.js';
import { LoginMethodsRepository } from './login-methods.repository.js';
import type { TokenService, TokenSession } from './tokens.service.js';
import { encodeUserCode } from './user-code.js';
import { TokensRepository } from './tokens.repository.js';
import { UsersRepository } from './users.repository.js';

/**
 * Body of the account cancellation event (section 6 leaves it open; defined
 * in docs/accounts.md). Sent signed per 5.3 to the app's
 * cancellationCallbackUrl by the delivery engine.
 */
export interface CancellationEventBody {
  notifyId: number;
  notifyTime: number;
  eventType: 'account_cancellation';
  appId: number;
  userId: string;
  userCode: string;
  requestTime: number;
  cancelTime: number;
}

const BATCH = 100;

/**
 * Account cancellation: the player asks (client API), the account stays
 * usable for the cooling-off period (a login does not undo it; withdrawing
 * does), then the sweep cancels it: tokens revoked, login methods removed (the
 * open ids are free again and 4.4 answers 40103 for them), and one
 * cancellation event per app the user ever logged into, in the same
 * transaction.
 */
export class CancellationService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly tokens: TokenService,
    private readonly opts: { coolingOffSeconds: number; now: () => number },
  ) {}

  async request(s: TokenSession): Promise<{ status: 'cancelling'; cancelDueAt: string }> {
    const users = new UsersRepository(this.db);
    const now = this.opts.now();
    await users.requestCancellation(s.userId, now, now + this.opts.coolingOffSeconds * 1000);
    const user = await users.byId(s.userId);
    if (user?.status !== 'cancelling' || user.cancel_due_at === null)
      throw new AppError('CONFLICT', 'this account cannot be cancelled in its current state');
    return { status: 'cancelling', cancelDueAt: iso(user.cancel_due_at) };
  }

  async withdraw(s: TokenSession): Promise<{ status: 'active'; cancelDueAt: null }> {
    const users = new UsersRepository(this.db);
    if (!(await users.withdrawCancellation(s.userId)))
      throw new AppError('CONFLICT', 'no cancellation of this account is pending');
    return { status: 'active', cancelDueAt: null };
  }

  /** Cancels every account whose cooling-off has ended; answers their user ids. Safe to run on several instances at once. */
  async processDue(): Promise<number[]> {
    const done: number[] = [];
    for (;;) {
      const now = this.opts.now();
      const due = await new UsersRepository(this.db).dueForCancellation(now, BATCH);
      for (const userId of due) if (await this.cancel(userId, now)) done.push(userId);
      if (due.length < BATCH) return done;
    }
  }

  private async cancel(userId: number, now: number): Promise<boolean> {
    const won = await this.db.transaction().execute(async (trx) => {
      const users = new UsersRepository(trx);
      if (!(await users.markCancelled(userId, now))) return false;
      const user = (await users.byId(userId))!;
      await new TokensRepository(trx).revokeUser(userId, 'cancellation', now);
      await new LoginMethodsRepository(trx).deleteByUser(userId);
      for (const { app_id: appId } of await users.appsOf(userId)) {
        await enqueueEvent(
          trx,
          {
            appId,
            type: 'cancellation',
            target: 'cancellation',
            body: (eventId): CancellationEventBody => ({
              notifyId: eventId,
              notifyTime: now,
              eventType: 'account_cancellation',
              appId,
              userId: String(userId),
              userCode: encodeUserCode(userId),
              requestTime: user.cancel_requested_at ?? now,
              cancelTime: now,
            }),
          },
          now,
        );
      }
      return true;
    });
    if (won) this.tokens.evictUser(userId);
    return won;
  }
}
