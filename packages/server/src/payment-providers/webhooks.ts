import { AppError, invalidParameter } from '../errors/app-error.js';
import type { ProviderPayments } from './provider-payments.js';
import type { FindingResult } from './finding-result.js';
import { ProviderError, type AnyProvider, type WebhookRequest } from './provider.js';
import type { ProviderSettingsService } from './provider-settings.service.js';
import { safeText } from './safe-text.js';

/**
 * A provider's webhook, written once: the app's settings of the provider (none: 404, recorded nowhere), the adapter's
 * verification (a refusal is recorded and answered 4xx; a provider that cannot be reached to verify is 502, so it
 * retries), then ProviderPayments applies and records what the message reports.
 */
export class ProviderWebhooks {
  constructor(
    private readonly settings: ProviderSettingsService,
    private readonly payments: ProviderPayments,
  ) {}

  async receive(provider: AnyProvider, appId: number, request: WebhookRequest): Promise<FindingResult> {
    const settings = await this.settings.forApp(appId, provider.id);
    if (!settings) throw new AppError('NOT_FOUND', `app ${appId} has no ${provider.id} settings`);
    let notification;
    try {
      notification = await provider.verify(settings, request);
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      if (e.retryable)
        throw new AppError('PROVIDER_UNAVAILABLE', `${provider.id} could not be reached to verify: ${e.message}`);
      return this.payments.refused(provider.id, appId, e, claimed(request.body));
    }
    return this.payments.notified(provider.id, appId, notification);
  }
}

/** The answer of a refusal: 400 when the message did not verify, 409 when it verified but pays nothing. */
export function refusal(provider: string, r: FindingResult): AppError {
  return new AppError(
    r.verified ? 'PROVIDER_PAYMENT_REFUSED' : 'PROVIDER_NOTIFICATION_REFUSED',
    `${provider}: refused (${r.reason})`,
    { data: { outcome: r.outcome, reason: r.reason } },
  );
}

/** What an unverified body claims to be (for operators): its id and type, never the rest. */
function claimed(body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const pick = (k: string) => (typeof b[k] === 'string' ? safeText(b[k] as string, 100) : undefined);
  return JSON.stringify({
    unverified: true,
    id: pick('id') ?? pick('notify_id'),
    type: pick('type') ?? pick('event_type'),
  });
}

/** How deep a provider's body may nest (PayPal's events: 6 levels). */
const MAX_DEPTH = 32;

/**
 * Refuses NUL and unpaired surrogates anywhere in a provider's body (keys and values), naming where, as every other
 * body is refused (docs/errors.md, "Text"); a provider's body is open-ended, so its schema cannot say it.
 */
export function refuseUnstorable(value: unknown, path: string[] = []): void {
  const bad = (s: string) => s.includes('\u0000') || /[\uD800-\uDFFF]/u.test(s);
  const where = () => path.join('.') || 'body';
  // No provider nests this deep; a body that does is refused before the walk (or anything after it) runs out of stack.
  if (path.length > MAX_DEPTH)
    throw invalidParameter(where().slice(0, 200), `is nested deeper than ${MAX_DEPTH} levels`);
  if (typeof value === 'string') {
    if (bad(value)) throw invalidParameter(where(), 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate');
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => refuseUnstorable(v, [...path, String(i)]));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (bad(k))
        throw invalidParameter([...path, k].join('.'), 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate');
      refuseUnstorable(v, [...path, k]);
    }
  }
}
