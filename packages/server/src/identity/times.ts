/**
 * Times of the admin and portal APIs: ISO 8601 UTC. Here, at the bottom of the people's domains, so that identity,
 * operators and the players' accounts format alike without importing one another.
 */
export const iso = (ms: number) => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
