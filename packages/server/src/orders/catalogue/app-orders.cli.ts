import type { Command } from 'commander';
import type { CliContext } from '../../cli/context.js';
import type { AppService } from '../../apps/apps.service.js';
import type { RefundAbuse } from '../refunds/refund-abuse.js';
import { invalidParameter } from '../../errors/app-error.js';
import { parseId } from '../../http/admin-query.js';
import {
  ACCOUNT_BINDINGS,
  REFUND_PREFERENCES,
  type AccountBinding,
  type OrderSettings,
  type OrderSettingsChange,
  type RefundPreference,
  type OrderSettingsService,
} from './settings.js';
import { TEXT_PATTERN } from '../../http/schemas.js';

/** The consent statement as the admin API takes it (Text, 10 to 2000 characters). */
const TEXT = new RegExp(`^(?=[\\s\\S]{10,2000}$)${TEXT_PATTERN.slice(1)}`);
import type { Refunders } from '../refunds/refund-abuse.schemas.js';
import { onOff } from '../../cli/switch-option.js';
import { addAppReadCommand } from '../../cli/app-command.js';

/** What an app's order commands use. */
export interface AppOrderCliServices {
  orders: { settings: OrderSettingsService; refundAbuse: RefundAbuse };
  apps: Pick<AppService, 'get'>;
}

const describeSettings = (s: OrderSettings) =>
  [
    `appId ${s.appId}`,
    `  web region lock (2.4 rule 8)                     ${s.webRegionLock ? 'on' : 'off'}`,
    `  refuse store orders in arrears (4.5, 40945)      ${s.refuseStoreOrdersInArrears ? 'on' : 'off'}`,
    `  store account binding                            ${s.accountBinding}`,
    `  Apple consumption information                    ${s.consumptionConsent === null ? 'off' : `on since ${s.consumptionConsentedAt}`}`,
    ...(s.consumptionConsent === null ? [] : [`    studio's consent statement: ${s.consumptionConsent}`]),
    `  Apple refund preference                          ${s.refundPreference ?? 'none'}`,
  ].join('\n');

const describeRefunders = (r: Refunders) =>
  [
    `app ${r.appId}  refunds from ${r.from} to ${r.to}${r.currency ? `  in ${r.currency}` : ''}`,
    ...r.refunders.map(
      (p) =>
        `user ${p.userId}  refunds ${p.refunds}  refunded ${p.refunded.map((a) => `${a.amount} ${a.currency}`).join(' + ')}  ` +
        `pending supplements ${p.pendingSupplements}  last refund ${p.lastRefundAt}`,
    ),
    r.refunders.length === 0 ? 'no refunds in the window' : '',
    r.nextCursor ? `next page: --cursor ${r.nextCursor}` : '',
  ]
    .filter(Boolean)
    .join('\n');

/**
 * `app order-settings show|set` and `app refunders`: an app's order settings (web region lock, refusing store
 * orders of players in arrears) and its players with the most refunds (docs/orders.md "Refund abuse").
 */
export function registerAppOrderCommands(app: Command, ctx: CliContext<AppOrderCliServices>): void {
  const settings = app.command('order-settings').description("an app's order settings");
  addAppReadCommand(settings, ctx, {
    name: 'show',
    read: (s, appId) => s.orders.settings.get(appId),
    text: describeSettings,
  });
  settings
    .command('set')
    .argument('<appId>')
    .option('--web-region-lock <on|off>', 'web payments take the registration region (2.4 rule 8)')
    .option(
      '--refuse-store-orders-in-arrears <on|off>',
      'refuse new store orders of a player with a pending supplement (4.5) before the game is asked',
    )
    .option(
      '--account-binding <required|when_present|off>',
      "how a store transaction's account token must match the player submitting it",
    )
    .option(
      '--consumption-consent <statement>',
      "turn Apple consumption information on with the studio's statement that its players consented",
    )
    .option('--no-consumption-consent', 'turn Apple consumption information off')
    .option('--refund-preference <DECLINE|GRANT_FULL|GRANT_PRORATED|none>', 'Apple refundPreference to send')
    .action(async (id: string, o) => {
      const appId = parseId('appId', id);
      const webRegionLock = onOff('--web-region-lock', o.webRegionLock);
      const refuse = onOff('--refuse-store-orders-in-arrears', o.refuseStoreOrdersInArrears);
      const binding = o.accountBinding as string | undefined;
      if (binding !== undefined && !ACCOUNT_BINDINGS.includes(binding as AccountBinding))
        throw invalidParameter('--account-binding', 'must be required, when_present or off');
      const preference = o.refundPreference as string | undefined;
      if (
        preference !== undefined &&
        preference !== 'none' &&
        !REFUND_PREFERENCES.includes(preference as RefundPreference)
      )
        throw invalidParameter('--refund-preference', 'must be DECLINE, GRANT_FULL, GRANT_PRORATED or none');
      const consent = o.consumptionConsent as string | boolean | undefined;
      if (typeof consent === 'string' && !TEXT.test(consent))
        throw invalidParameter('--consumption-consent', 'must be 10 to 2000 characters of text');
      const change: OrderSettingsChange = {
        ...(webRegionLock === undefined ? {} : { webRegionLock }),
        ...(refuse === undefined ? {} : { refuseStoreOrdersInArrears: refuse }),
        ...(binding === undefined ? {} : { accountBinding: binding as AccountBinding }),
        ...(typeof consent === 'string' ? { consumptionConsent: consent } : {}),
        ...(consent === false ? { consumptionConsent: null } : {}),
        ...(preference === undefined
          ? {}
          : { refundPreference: preference === 'none' ? null : (preference as RefundPreference) }),
      };
      if (Object.keys(change).length === 0)
        throw invalidParameter(
          'settings',
          'give --web-region-lock, --refuse-store-orders-in-arrears, --account-binding, --[no-]consumption-consent or --refund-preference',
        );
      await ctx.withServices(async (s) => {
        const saved = await s.orders.settings.put(appId, change);
        ctx.output(saved, () => describeSettings(saved));
      });
    });

  app
    .command('refunders')
    .description("an app's players with the most refunds in a window (count, amount, pending supplements, last refund)")
    .argument('<appId>')
    .option('--from <time>', 'refunds created at or after (ISO 8601 or Unix ms); default 30 days before --to')
    .option('--to <time>', 'refunds created before; default now')
    .option('--currency <ISO 4217>', 'only refunds in this currency')
    .option('--limit <n>', '1-200', '50')
    .option('--cursor <cursor>', 'the next page (as the previous page printed it)')
    .action(async (id: string, o) => {
      const appId = parseId('appId', id);
      await ctx.withServices(async (s) => {
        const query = s.orders.refundAbuse.parse(appId, {
          from: o.from,
          to: o.to,
          currency: o.currency,
          limit: o.limit,
          cursor: o.cursor,
        });
        await s.apps.get(appId);
        const page = await s.orders.refundAbuse.refunders(query);
        ctx.output(page, () => describeRefunders(page));
      });
    });
}
