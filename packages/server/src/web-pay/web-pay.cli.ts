import type { Command } from 'commander';
import { Value } from '@sinclair/typebox/value';
import type { CliContext } from '../cli/context.js';
import { addAppReadCommand } from '../cli/app-command.js';
import type { AppService } from '../apps/apps.service.js';
import { invalidParameter } from '../errors/app-error.js';
import { LangTag, PayServer, type WebPaySettingsService } from './web-pay-settings.js';

/** What the web payment page's commands use. */
export interface WebPayCliServices {
  webPay: { settings: WebPaySettingsService };
  apps: Pick<AppService, 'get'>;
}

function parseNumber(field: string, value: string): number {
  if (!/^[0-9]{1,9}$/.test(value)) throw invalidParameter(field, 'must be a whole number');
  return Number(value);
}

const parseAppId = (value: string) => parseNumber('appId', value);

function parseLang(value: string): string {
  if (!Value.Check(LangTag, value)) throw invalidParameter('lang', 'must be a language tag such as en or zh-CN');
  return value;
}

/**
 * `app web-pay servers|set-servers|show|set-frame-ancestors|set-return-urls` and `app precheck-messages
 * list|set|delete`: what the official web payment page offers, who may frame it, where payments may return, and the
 * game's texts of its custom pre-order check codes (section 7; built-in codes are refused).
 */
export function registerWebPayCommands(app: Command, ctx: CliContext<WebPayCliServices>): void {
  const web = app.command('web-pay').description('the official web payment page of an app (docs/web-payment.md)');
  addAppReadCommand(web, ctx, {
    name: 'servers',
    appId: parseAppId,
    read: async (s, appId) => ({ appId, servers: await s.webPay.settings.servers(appId) }),
    text: ({ servers }) => servers.map((v) => `${v.serverId}\t${v.name}`).join('\n') || 'no servers',
  });
  web
    .command('set-servers')
    .description('replace the servers the page offers')
    .argument('<appId>')
    .argument('<servers...>', 'serverId=name, e.g. s1="Asia 1"')
    .action(async (id: string, list: string[]) => {
      await ctx.withServices(async (s) => {
        const servers = list.map((item, i) => {
          const at = item.indexOf('=');
          const server = { serverId: item.slice(0, at), name: item.slice(at + 1) };
          if (at < 1 || !Value.Check(PayServer, server))
            throw invalidParameter(`servers.${i}`, 'must be serverId=name');
          return server;
        });
        const saved = await s.webPay.settings.putServers(parseNumber('appId', id), servers);
        ctx.output({ servers: saved }, () => `${saved.length} servers`);
      });
    });

  addAppReadCommand(web, ctx, {
    name: 'show',
    description: 'servers, frame ancestors and return URLs of the page',
    appId: parseAppId,
    read: (s, appId) => s.webPay.settings.settings(appId),
    text: (v) =>
      [
        `servers: ${v.servers.map((x) => `${x.serverId}=${x.name}`).join(', ') || '-'}`,
        `frame ancestors: ${v.frameAncestors.join(' ') || "'none'"}`,
        `return URLs: ${v.returnUrls.join(' ') || '-'}`,
      ].join('\n'),
  });
  for (const [name, field, what] of [
    ['set-frame-ancestors', 'frameAncestors', 'origins that may frame the page (none: no framing)'],
    ['set-return-urls', 'returnUrls', "return URLs besides the page's origin (none: only the page's)"],
  ] as const) {
    web
      .command(name)
      .description(`replace the ${what}`)
      .argument('<appId>')
      .argument('[values...]')
      .action((id: string, values: string[]) =>
        ctx.print(
          (s) => s.webPay.settings.put(parseNumber('appId', id), { [field]: values }),
          (saved) => `${saved[field].length} ${field === 'frameAncestors' ? 'origins' : 'URLs'}`,
        ),
      );
  }

  const messages = app
    .command('precheck-messages')
    .description("the game's texts of its custom pre-order check codes, per language (section 7)");
  messages
    .command('list')
    .argument('<appId>')
    .action(async (id: string) => {
      await ctx.withServices(async (s) => {
        const items = await s.webPay.settings.messages(parseNumber('appId', id));
        ctx.output({ items }, () => items.map((m) => `${m.code}\t${m.lang}\t${m.text}`).join('\n') || 'no texts');
      });
    });
  messages
    .command('set')
    .argument('<appId>')
    .argument('<code>')
    .argument('<lang>')
    .argument('<text>')
    .action(async (id: string, code: string, lang: string, text: string) => {
      await ctx.withServices(async (s) => {
        if (text.length < 1 || text.length > 500) throw invalidParameter('text', 'must be 1-500 characters');
        const saved = await s.webPay.settings.putMessage(
          parseNumber('appId', id),
          parseNumber('code', code),
          parseLang(lang),
          text,
        );
        ctx.output(saved, () => `${saved.code} ${saved.lang}: ${saved.text}`);
      });
    });
  messages
    .command('delete')
    .argument('<appId>')
    .argument('<code>')
    .argument('[lang]', 'one language; all of the code without it')
    .action(async (id: string, code: string, lang?: string) => {
      await ctx.withServices(async (s) => {
        await s.webPay.settings.deleteMessages(
          parseNumber('appId', id),
          parseNumber('code', code),
          lang === undefined ? undefined : parseLang(lang),
        );
        ctx.output({ deleted: true }, () => 'deleted');
      });
    });
}
