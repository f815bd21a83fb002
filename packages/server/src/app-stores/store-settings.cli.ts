import fs from 'node:fs';
import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { Config } from '../config/config.js';
import { invalidParameter } from '../errors/app-error.js';
import type { AppleSettingsView, GoogleSettingsView } from './store-settings.schemas.js';
import type { StoreSettingsService } from './store-settings.service.js';
import { notificationUrls } from './notification-urls.js';

/** What the `app store-settings` commands use. */
export interface StoreSettingsCommandServices {
  storeSettings: StoreSettingsService;
  config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PORT'>;
}

function parseAppId(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw invalidParameter('appId', 'must be a number');
  return Number(value);
}

function readFile(option: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw invalidParameter(option, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** The base of the notification URLs from PUBLIC_HOST (the admin API answers them from the request's); none without it. */
const publicBase = (config: Pick<Config, 'PUBLIC_HOST' | 'PUBLIC_PORT'>) =>
  config.PUBLIC_HOST
    ? `https://${config.PUBLIC_HOST}${config.PUBLIC_PORT === 443 ? '' : `:${config.PUBLIC_PORT}`}`
    : '';

const describeApple = (a: AppleSettingsView | null) =>
  a
    ? [
        `apple   ${a.enabled ? 'enabled' : 'disabled'}  bundleId ${a.bundleId}  appAppleId ${a.appAppleId ?? '-'}  ${a.environment}`,
        `  roots ${a.rootCertificatesPem ? 'custom' : 'Apple Root CA - G3'}`,
        `  App Store Server API: ${a.apiKeySet ? `issuer ${a.apiIssuerId}  key ${a.apiKeyId} (key set)` : 'no key'}`,
      ].join('\n')
    : 'apple   not set';

const describeGoogle = (g: GoogleSettingsView | null) =>
  g
    ? [
        `google  ${g.enabled ? 'enabled' : 'disabled'}  packageName ${g.packageName}`,
        `  service account ${g.serviceAccountSet ? g.serviceAccountEmail : 'not set'}`,
        `  push audience ${g.pushAudience ?? '-'}  push service account ${g.pushServiceAccountEmail ?? '-'}`,
      ].join('\n')
    : 'google  not set';

/** `app store-settings show|set-apple|set-google|delete`: the per-app store settings; secrets are read from files. */
export function registerStoreSettingsCommands(app: Command, ctx: CliContext<StoreSettingsCommandServices>): void {
  const settings = app.command('store-settings').description('per-app App Store and Google Play settings');

  settings
    .command('show')
    .argument('<appId>')
    .action(async (id: string) => {
      await ctx.withServices(async (s) => {
        const appId = parseAppId(id);
        const shown = {
          appId,
          ...(await s.storeSettings.show(appId)),
          notificationUrls: notificationUrls(publicBase(s.config), appId),
        };
        ctx.output(shown, () =>
          [
            describeApple(shown.apple),
            describeGoogle(shown.google),
            `notification URLs: App Store Connect ${shown.notificationUrls.apple}`,
            `                   Play Console (push endpoint) ${shown.notificationUrls.google}`,
          ].join('\n'),
        );
      });
    });

  settings
    .command('set-apple')
    .argument('<appId>')
    .requiredOption('--bundle-id <id>', 'bundle identifier')
    .requiredOption('--environment <env>', 'Production | Sandbox')
    .option('--app-apple-id <n>', "the app's Apple ID (required in Production)")
    .option('--root-certificates-file <file>', 'trusted roots (PEM); default Apple Root CA - G3')
    .option('--api-issuer-id <uuid>', 'App Store Server API issuer id')
    .option('--api-key-id <id>', 'App Store Server API key id')
    .option('--api-private-key-file <file>', 'the .p8 key; omitted: the stored key is kept')
    .option('--disabled', 'store the settings disabled', false)
    .action(async (id: string, o) => {
      await ctx.withServices(async (s) => {
        if (o.appAppleId !== undefined && !/^[0-9]{1,16}$/.test(o.appAppleId))
          throw invalidParameter('appAppleId', 'is a positive integer');
        const saved = await s.storeSettings.putApple(parseAppId(id), {
          enabled: !o.disabled,
          bundleId: o.bundleId,
          environment: o.environment,
          ...(o.appAppleId !== undefined ? { appAppleId: Number(o.appAppleId) } : {}),
          ...(o.rootCertificatesFile
            ? { rootCertificatesPem: readFile('rootCertificatesFile', o.rootCertificatesFile) }
            : {}),
          ...(o.apiIssuerId ? { apiIssuerId: o.apiIssuerId } : {}),
          ...(o.apiKeyId ? { apiKeyId: o.apiKeyId } : {}),
          ...(o.apiPrivateKeyFile ? { apiPrivateKey: readFile('apiPrivateKeyFile', o.apiPrivateKeyFile) } : {}),
        });
        ctx.output(saved, () => describeApple(saved));
      });
    });

  settings
    .command('set-google')
    .argument('<appId>')
    .requiredOption('--package-name <name>', 'package name')
    .option('--service-account-file <file>', 'the service account key (JSON); omitted: the stored one is kept')
    .option('--push-audience <aud>', "audience of the push subscription's OIDC token")
    .option('--push-service-account <email>', 'service account the push subscription authenticates as')
    .option('--disabled', 'store the settings disabled', false)
    .action((id: string, o) =>
      ctx.print(
        (s) =>
          s.storeSettings.putGoogle(parseAppId(id), {
            enabled: !o.disabled,
            packageName: o.packageName,
            ...(o.serviceAccountFile
              ? { serviceAccountJson: readFile('serviceAccountFile', o.serviceAccountFile) }
              : {}),
            ...(o.pushAudience ? { pushAudience: o.pushAudience } : {}),
            ...(o.pushServiceAccount ? { pushServiceAccountEmail: o.pushServiceAccount } : {}),
          }),
        describeGoogle,
      ),
    );

  settings
    .command('delete')
    .argument('<appId>')
    .argument('<store>', 'apple | google')
    .action(async (id: string, store: string) => {
      if (store !== 'apple' && store !== 'google') throw invalidParameter('store', 'is apple or google');
      await ctx.withServices(async (s) => {
        await s.storeSettings.remove(parseAppId(id), store);
        ctx.output({ deleted: store }, () => `${store} store settings deleted`);
      });
    });
}
