import type { SealedColumn } from '../crypto/sealed-column.js';
import { APP_SEALED_COLUMNS } from '../apps/apps.service.js';
import { TOKEN_SEALED_COLUMNS } from '../accounts/tokens.service.js';
import { PLATFORM_KEY_SEALED_COLUMNS } from '../platform-keys/keys.service.js';
import { STORE_SETTINGS_SEALED_COLUMNS } from '../app-stores/store-settings.service.js';
import { PEOPLE_SEALED_COLUMNS } from '../identity/people.service.js';
import { PROVIDER_SETTINGS_SEALED_COLUMNS } from '../payment-providers/provider-settings.service.js';

/** Every stored column sealed under the master key: what a rotation must reseal. */
export const SEALED_COLUMNS: SealedColumn[] = [
  ...APP_SEALED_COLUMNS,
  ...TOKEN_SEALED_COLUMNS,
  ...PLATFORM_KEY_SEALED_COLUMNS,
  ...STORE_SETTINGS_SEALED_COLUMNS,
  ...PEOPLE_SEALED_COLUMNS,
  ...PROVIDER_SETTINGS_SEALED_COLUMNS,
];
