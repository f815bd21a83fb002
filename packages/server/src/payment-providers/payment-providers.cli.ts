import fs from 'node:fs';
import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { AppService } from '../apps/apps.service.js';
import { parseId } from '../http/admin-query.js';
import { addMessageListCommand } from '../cli/message-list.js';
import type { Config } from '../config/config.js';
import { invalidParameter } from '../errors/app-error.js';
import { PAYER_REGIONS, type PayerRegion } from './provider.js';
import type { ProvidersView } from './provider-settings.schemas.js';
import type { ProviderSettingsService } from './provider-settings.service.js';
import type { ProviderMessageFilter, ProviderMessageRow } from './payment-providers.repository.js';
import { parseProviderMessagesQuery, toProviderMessage, type ProviderMessage } from './provider-messages.schemas.js';

const parseAppId = (value: string) => parseId('appId', value);

/** What the providers' commands use. */
export interface PaymentProviderCliServices {
  paymentProviders: {
    settings: ProviderSettingsService;
    messages(filter: ProviderMessageFilter): Promise<ProviderMessageRow[]>;
  };
  apps: Pick<AppService, 'get'>;
  config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PORT'>;
}

/** The base URL of the webhook URLs from PUBLIC_HOST (the admin API answers them from the request); none without it. */
function baseUrl(config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PORT'>): string {
  return config.PUBLIC_HOST
    ? `https://${config.PUBLIC_HOST}${config.PUBLIC_PORT === 443 ? '' : `:${config.PUBLIC_PORT}`}`
    : '';
}

/** `name=value` pairs of a repeated option. */
function pairs(option: string, values: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf('=');
    if (i < 1) throw invalidParameter(option, `${JSON.stringify(v)} is not name=value`);
    out[v.slice(0, i)] = v.slice(i + 1);
  }
  return out;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function describe(view: ProvidersView): string {
  return view.providers
    .map((p) => {
      const s = p.settings;
      const head = `${p.provider} (${p.method}, channel ${p.channel})  webhook ${p.webhookUrl}`;
      if (!s) return `${head}\n  not set`;
      return [
        head,
        `  ${s.enabled ? 'enabled' : 'disabled'} for ${s.regions.join(', ')} players`,
        ...Object.entries(s.config).map(([k, v]) => `  ${k}: ${v}`),
        `  secrets stored: ${s.secretsSet.join(', ') || 'none'} (never shown)`,
      ].join('\n');
    })
    .join('\n');
}

const line = (m: ProviderMessage) =>
  `#${m.messageId}  ${m.receivedAt}  ${m.provider} ${m.source}  ${m.type ?? '-'}  ${m.outcome}${m.reason ? ` (${m.reason})` : ''}  trxNo ${m.trxNo ?? '-'}  ${m.providerTrxId ?? ''}`;

/**
 * `app payment-providers show|set|delete` and `app provider-messages`: per-app web payment providers. Secrets are
 * read from files (`--secret-file name=path`), never from the command line.
 */
export function registerPaymentProviderCommands(app: Command, ctx: CliContext<PaymentProviderCliServices>): void {
  const providers = app.command('payment-providers').description('per-app web payment providers (cards, PayPal, ...)');

  providers
    .command('show')
    .argument('<appId>')
    .action((id: string) =>
      ctx.print((s) => s.paymentProviders.settings.show(parseAppId(id), baseUrl(s.config)), describe),
    );

  providers
    .command('set')
    .argument('<appId>')
    .argument('<provider>', 'stripe | paypal | alipay | wechatpay')
    .option('--regions <list>', `comma-separated: ${PAYER_REGIONS.join(', ')} (default: the provider's)`)
    .option('--config <name=value>', 'a public field (repeat for each)', collect)
    .option(
      '--secret-file <name=path>',
      'a secret field read from a file (repeat); omitted: the stored one is kept',
      collect,
    )
    .option('--remove-secret <name>', 'remove a stored secret (repeat)', collect)
    .option('--disabled', 'store the settings disabled', false)
    .action(async (id: string, provider: string, o) => {
      const regions = o.regions?.split(',').map((r: string) => r.trim());
      if (regions?.some((r: string) => !(PAYER_REGIONS as readonly string[]).includes(r)))
        throw invalidParameter('regions', `are of ${PAYER_REGIONS.join(', ')}`);
      const secrets: Record<string, string | null> = {};
      for (const [name, file] of Object.entries(pairs('secretFile', o.secretFile))) {
        try {
          secrets[name] = fs.readFileSync(file, 'utf8').trim();
        } catch (err) {
          throw invalidParameter(
            'secretFile',
            `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
          );
        }
      }
      for (const name of o.removeSecret ?? []) secrets[name] = null;
      await ctx.withServices(async (s) => {
        const saved = await s.paymentProviders.settings.put(parseAppId(id), provider, {
          enabled: !o.disabled,
          ...(regions ? { regions: regions as PayerRegion[] } : {}),
          config: pairs('config', o.config),
          secrets,
        });
        ctx.output(saved, () =>
          [
            `${saved.provider} ${saved.enabled ? 'enabled' : 'disabled'} for ${saved.regions.join(', ')} players`,
            `secrets stored: ${saved.secretsSet.join(', ') || 'none'} (never shown)`,
          ].join('\n'),
        );
      });
    });

  providers
    .command('delete')
    .argument('<appId>')
    .argument('<provider>')
    .action(async (id: string, provider: string) => {
      await ctx.withServices(async (s) => {
        await s.paymentProviders.settings.remove(parseAppId(id), provider);
        ctx.output({ deleted: provider }, () => `${provider} settings deleted`);
      });
    });

  addMessageListCommand(app, ctx, {
    name: 'provider-messages',
    description: "an app's payment provider messages, newest first, verified or not, with their outcome",
    filters: [
      ['--provider <provider>', 'stripe | paypal | alipay | wechatpay'],
      ['--outcome <outcome>', 'applied | duplicate | recorded | ignored | refused'],
      ['--type <type>', 'the provider event type, e.g. charge.refunded'],
      ['--trx-no <trxNo>', "one order's messages"],
    ],
    parse: (appId, o) => {
      if (o.outcome && !['applied', 'duplicate', 'recorded', 'ignored', 'refused'].includes(o.outcome))
        throw invalidParameter('outcome', 'is applied, duplicate, recorded, ignored or refused');
      return parseProviderMessagesQuery(appId, o);
    },
    list: async (s, filter) => (await s.paymentProviders.messages(filter)).map(toProviderMessage),
    line,
    none: 'no provider messages',
  });
}
