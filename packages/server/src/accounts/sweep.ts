import type { AccountService } from './accounts.service.js';

/** How long expired tokens are kept (for the operator's session view) before they are deleted. */
export const EXPIRED_TOKEN_RETENTION_MS = 7 * 86_400_000;

/**
 * The accounts' periodic job (started by boot.ts, unref'd): cancels accounts
 * whose cooling-off has ended and deletes long-expired tokens, every
 * CANCELLATION_SWEEP_SECONDS. `npm run cli -- account process-cancellations`
 * and POST /admin/v1/accounts/process-cancellations run the same now.
 */
export function startAccountSweep(
  services: {
    accounts: Pick<AccountService, 'cancellation' | 'tokens'>;
    config: { CANCELLATION_SWEEP_SECONDS: number };
  },
  onError: (err: unknown) => void,
): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    (async () => {
      await services.accounts.cancellation.processDue();
      await services.accounts.tokens.purgeExpired(Date.now() - EXPIRED_TOKEN_RETENTION_MS);
    })()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, services.config.CANCELLATION_SWEEP_SECONDS * 1000);
  timer.unref();
  return timer;
}
