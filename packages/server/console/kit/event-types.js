// @ts-check
// kit/event-types.js - the outbox's event types and states as the console and the studio portal offer them (filters,
// test events). The lists come from the service's schemas through page-types: tsc fails when one misses a value the
// schema has, or names one it does not have, so the pages never restate the enums by hand.

/** @typedef {NonNullable<import('page-types').Query<'/admin/v1/events'>['type']>} EventType */
/** @typedef {NonNullable<import('page-types').Query<'/admin/v1/events'>['state']>} EventState */
/** @typedef {import('page-types').paths['/admin/v1/apps/{appId}/test-events']['post']['requestBody']['content']['application/json']['type']} TestEventType */

// One table a list, typed as exactly one key per value of the schema's enum (a missing or an unknown key fails).
/** @type {{ [K in EventType]: true }} */
const TYPES = { payment: true, refund: true, cancellation: true, consumption: true, test: true };
/** @type {{ [K in EventState]: true }} */
const STATES = { pending: true, delivered: true, dead: true };
/** @type {{ [K in TestEventType]: true }} */
const TEST_TYPES = { payment: true, refund: true, cancellation: true };

/** The event types the service delivers (GET /events?type=). */
export const EVENT_TYPES = /** @type {EventType[]} */ (Object.keys(TYPES));

/** The delivery states of an event (GET /events?state=). */
export const EVENT_STATES = /** @type {EventState[]} */ (Object.keys(STATES));

/** The types a test event may take (POST /apps/{appId}/test-events). */
export const TEST_EVENT_TYPES = /** @type {TestEventType[]} */ (Object.keys(TEST_TYPES));
