import type { Ban } from './accounts.schemas.js';
import type { BanRow } from './users.repository.js';
import { iso, isoOrNull } from '../identity/times.js';

/** registTime of 2.2: ISO 8601 with an explicit offset (UTC, `+00:00`). */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

export function toBan(b: BanRow): Ban {
  return {
    banId: b.ban_id,
    reason: b.reason,
    until: isoOrNull(b.until),
    actor: b.actor,
    createdAt: iso(b.created_at),
    liftedAt: isoOrNull(b.lifted_at),
    liftedBy: b.lifted_by,
  };
}
