/** Row types of migrations 0015 and 0017 (web-pay/). Times are Unix milliseconds. */
export interface PayLinksTable {
  /** sha256 (hex) of the link's token; the token itself is only in the URL the client got. */
  link_hash: string;
  app_id: number;
  user_id: string;
  game_role_id: string;
  game_server_id: string;
  game_ext: string | null;
  lang: string | null;
  /** The token's userRegion when the link was made: the registration region of 2.4 rule 8. */
  user_region: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface WebPaySettingsTable {
  app_id: number;
  /** JSON [{serverId, name}]. */
  servers: string;
  /** JSON [origin] (migration 0017): the page's CSP frame-ancestors; [] is 'none'. */
  frame_ancestors: string;
  /** JSON [url] (migration 0017): return URLs of payment steps besides the page's own origin. */
  return_urls: string;
  updated_at: number;
}

export interface PrecheckMessagesTable {
  app_id: number;
  code: number;
  lang: string;
  text: string;
  updated_at: number;
}

export interface WebPayTables {
  pay_links: PayLinksTable;
  web_pay_settings: WebPaySettingsTable;
  precheck_messages: PrecheckMessagesTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends WebPayTables {}
}
