import type { ProviderMessageOutcome } from './payment-providers.tables.js';

/**
 * What a provider's message or a query find did: answered to the provider and recorded for operators. Its own file: the payments
 * (provider-payments.ts) and the refunds they hand on (provider-refunds.ts) both answer it.
 */
export interface FindingResult {
  outcome: ProviderMessageOutcome;
  /** Why it was refused, ignored or a duplicate (`amount_mismatch`, `order_closed`, `replayed`...). */
  reason: string | null;
  trxNo: number | null;
  /** Refused after the message verified (its content does not pay the order), not for failing verification. */
  verified: boolean;
}
