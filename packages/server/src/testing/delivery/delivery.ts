import type { TestService } from '../service.js';
import type { EventRow } from '../../delivery/events.repository.js';

/** Polls the outbox until the event satisfies `predicate`. */
export async function waitForEvent(
  svc: TestService,
  eventId: number,
  predicate: (e: EventRow) => boolean,
  timeoutMs = 10_000,
): Promise<EventRow> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await svc.services.delivery.events.get(eventId);
    if (row && predicate(row)) return row;
    if (Date.now() > until)
      throw new Error(`event ${eventId} did not reach the expected state: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Creates an app whose default callback (and cancellation URL) is `base` + path. */
export async function appFor(svc: TestService, base: string, extra: Record<string, unknown> = {}): Promise<any> {
  return svc.createApp({
    callbackUrls: { default: `${base}/pay/callback` },
    cancellationCallbackUrl: `${base}/account/cancel`,
    ...extra,
  });
}

/** Fast settings for retry tests: attempts 100 ms apart, no jitter. */
export const FAST = { DELIVERY_SCHEDULE: '0,100ms,100ms', DELIVERY_JITTER: '0', DELIVERY_POLL_MS: '50' };
