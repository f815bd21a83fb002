import client from 'prom-client';
import { attachOnce, counter } from '../http/unattached-metrics.js';

/** Whose sign-in: a console operator's, or a studio developer's in the portal. */
export type AccountKind = 'operator' | 'studio_developer';

const ACCOUNTS: AccountKind[] = ['operator', 'studio_developer'];
const REASONS = [
  'unknown_name',
  'wrong_password',
  'wrong_totp',
  'replayed_totp',
  'wrong_recovery_code',
  'no_second_factor',
  'disabled',
  'locked',
  'identity_provider',
];

/**
 * The reason label of a failed sign-in, from the refusal's description (which stays in the audit trail only): a
 * fixed set, so the metric's series stay few whatever a caller sends.
 */
export function failureReason(why: string): string {
  if (why === 'unknown name' || why.startsWith('unknown operator')) return 'unknown_name';
  if (why === 'wrong password') return 'wrong_password';
  if (why === 'wrong TOTP code') return 'wrong_totp';
  if (why === 'replayed TOTP code') return 'replayed_totp';
  if (why === 'unknown or used recovery code') return 'wrong_recovery_code';
  if (why === 'no second factor') return 'no_second_factor';
  if (why.startsWith('disabled')) return 'disabled';
  if (why.startsWith('locked')) return 'locked';
  return 'identity_provider';
}

/**
 * Sign-in failures and lockouts of operator and studio developer accounts (docs/operations.md#alerts): brute force
 * shows as failures rising, a lockout as soon as an account is locked. Counted for every refusal, recorded in the
 * audit trail or not (the trail is rate-bounded: admin-audit).
 */
export class SignInMetrics {
  readonly failures = counter(
    'operator_sign_in_failures_total',
    'Failed sign-ins by account kind (operator: the console; studio_developer: the portal) and reason (unknown_name, wrong_password, wrong_totp, replayed_totp, wrong_recovery_code, no_second_factor, disabled, locked, identity_provider)',
    ['account', 'reason'],
  );
  readonly lockouts = counter(
    'operator_lockouts_total',
    'Accounts locked after OPERATOR_LOGIN_MAX_FAILURES failed sign-ins in a row, by account kind (operator, studio_developer)',
    ['account'],
  );

  constructor() {
    // Every series starts at 0, so the first failure or lockout is an increase (a counter first seen at 1 is not).
    for (const account of ACCOUNTS) {
      this.lockouts.inc({ account }, 0);
      for (const reason of REASONS) this.failures.inc({ account, reason }, 0);
    }
  }

  failed(account: AccountKind, why: string): void {
    this.failures.inc({ account, reason: failureReason(why) });
  }

  locked(account: AccountKind): void {
    this.lockouts.inc({ account });
  }

  attach(registry: client.Registry): void {
    attachOnce(registry, { operator_sign_in_failures_total: this.failures, operator_lockouts_total: this.lockouts });
  }
}
