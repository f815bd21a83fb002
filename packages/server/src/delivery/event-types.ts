/** The outbox's event types: one list, which the outbox, the API's schemas and the pages' types derive from. */

/**
 * The types of the events for games (4.7) and their partners, in the order the API lists them: what the operator's and
 * the portal's event lists filter by (delivery.schemas.ts derives its enum from this list).
 */
export const GAME_EVENT_TYPES = ['payment', 'refund', 'cancellation', 'consumption', 'test'] as const;
/**
 * Every type of outbox event: the games' ones, then store_consumption, Apple's Send Consumption Information
 * (issue 27), which store-payments sends through the outbox to Apple, never to a game.
 */
export const EVENT_TYPES = [...GAME_EVENT_TYPES, 'store_consumption'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What an operator's test event is shaped like (sample-events.ts): the notifications of 2.4, 2.5 and the cancellation callback. */
export const TEST_EVENT_KINDS = ['payment', 'refund', 'cancellation'] as const;
export type TestEventKind = (typeof TEST_EVENT_KINDS)[number];
