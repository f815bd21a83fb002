import crypto from 'node:crypto';
import type { PayLinkRow, PayLinksRepository } from './pay-links.repository.js';

/** How long a launch link may wait to be opened. */
export const LINK_TTL_MS = 5 * 60_000;

export interface LinkRequest {
  appId: number;
  userId: string;
  roleId: string;
  serverId: string;
  gameExt: string | null;
  lang: string | null;
  userRegion: string | null;
}

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** Launch links of the in-game web view: single-use, LINK_TTL_MS, only their hash stored. */
export class PayLinkService {
  constructor(
    private readonly repo: PayLinksRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async create(req: LinkRequest): Promise<{ token: string; expiresAt: number }> {
    const token = crypto.randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = now + LINK_TTL_MS;
    await this.repo.insert({
      link_hash: hashOf(token),
      app_id: req.appId,
      user_id: req.userId,
      game_role_id: req.roleId,
      game_server_id: req.serverId,
      game_ext: req.gameExt,
      lang: req.lang,
      user_region: req.userRegion,
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
    });
    return { token, expiresAt };
  }

  /** The link of `token` for app `appId`, marked used; null when unknown, used, expired or another app's. */
  async open(appId: number, token: string): Promise<PayLinkRow | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const row = await this.repo.consume(hashOf(token), this.now());
    return row && Number(row.app_id) === appId ? row : null;
  }

  /** Retention: deletes up to `limit` links that expired before `cutoff`. */
  purgeBefore(cutoff: number, limit: number): Promise<number> {
    return this.repo.purgeBefore(cutoff, limit);
  }
}
