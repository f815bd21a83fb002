import { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import type { App } from './apps.schemas.js';
import type { AppService } from './apps.service.js';
import { onOff } from '../cli/switch-option.js';

const collect = (value: string, previous: string[]) => [...previous, value];

function parseAppId(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw invalidParameter('appId', 'must be a number');
  return Number(value);
}

/** `callback serverId=url` pairs into the 4.7 map (`default=url` for the fallback). */
function parseCallbacks(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((p) => {
      const eq = p.indexOf('=');
      return /^https?:\/\//i.test(p) || eq < 0 ? ['default', p] : [p.slice(0, eq), p.slice(eq + 1)];
    }),
  );
}

const describe = (a: App) =>
  [
    `appId ${a.appId}  clientId ${a.clientId}  ${a.name} (${a.region}, ${a.status})`,
    ...Object.entries(a.callbackUrls).map(([k, v]) => `  callback[${k}] ${v}`),
    ...(['roleQueryUrl', 'roleListUrl', 'preOrderCheckUrl', 'cancellationCallbackUrl', 'partnerUrl'] as const)
      .filter((k) => a[k])
      .map((k) => `  ${k} ${a[k]}`),
    a.allowedIps.length ? `  allowedIps ${a.allowedIps.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');

/** What the `app` commands use. */
export interface AppCommandServices {
  apps: AppService;
}

/** `app ...`; returns the `app` command, under which other domains add theirs (the program, commands.ts). */
export function registerAppCommands(program: Command, ctx: CliContext<AppCommandServices>): Command {
  const app = program.command('app').description('the app registry');

  app
    .command('create')
    .requiredOption('--name <name>', 'app name')
    .option('--region <region>', 'overseas | mainland')
    .option('--callback <serverId=url>', 'payment callback URL (repeat; a bare URL is `default`)', collect, [])
    .option('--role-query-url <url>')
    .option('--role-list-url <url>')
    .option('--pre-order-check-url <url>')
    .option('--cancellation-callback-url <url>')
    .option('--partner-url <url>')
    .option('--allow-ip <ip|cidr>', 'allow-listed caller IP (repeat)', collect, [])
    .option('--union-id', 'enable unionId in profiles', false)
    .action(async (o) => {
      await ctx.withServices(async (s) => {
        const { app: created, secret } = await s.apps.create({
          name: o.name,
          ...(o.region ? { region: o.region } : {}),
          callbackUrls: parseCallbacks(o.callback),
          roleQueryUrl: o.roleQueryUrl ?? null,
          roleListUrl: o.roleListUrl ?? null,
          preOrderCheckUrl: o.preOrderCheckUrl ?? null,
          cancellationCallbackUrl: o.cancellationCallbackUrl ?? null,
          partnerUrl: o.partnerUrl ?? null,
          allowedIps: o.allowIp,
          unionIdEnabled: o.unionId,
        });
        ctx.output({ ...created, secret }, () => `${describe(created)}\nsecret ${secret}  (shown once: store it now)`);
      });
    });

  app.command('list').action(() => ctx.printList('apps', (s) => s.apps.list(), describe, 'no apps'));

  app
    .command('show')
    .argument('<appId>')
    .action((id: string) => ctx.print((s) => s.apps.get(parseAppId(id)), describe));

  app
    .command('traceparent')
    .description("tracing: continue the game's own traceparent on its signed requests (on), or not (off, the default)")
    .argument('<appId>')
    .argument('<on|off>')
    .action(async (id: string, value: string) => {
      const trustTraceparent = onOff('<on|off>', value)!;
      await ctx.print(
        (s) => s.apps.update(parseAppId(id), { trustTraceparent }),
        (a) => `app ${a.appId}: the game's traceparent is ${a.trustTraceparent ? 'continued' : 'not continued'}`,
      );
    });

  app
    .command('rotate-secret')
    .argument('<appId>')
    .action(async (id: string) => {
      await ctx.withServices(async (s) => {
        const { app: rotated, secret } = await s.apps.rotateSecret(parseAppId(id));
        ctx.output(
          { ...rotated, secret },
          () => `new secret ${secret}  (shown once)\nprevious secret valid until ${rotated.previousSecretExpiresAt}`,
        );
      });
    });

  return app;
}
