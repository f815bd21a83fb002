import type { SealedColumn } from '../crypto/sealed-column.js';
import { APP_SEALED_COLUMNS } from '../apps/apps.service.js';
import { TOKEN_SEALED_COLUMNS } from '../accounts/tokens.service.js';
import { PLATFORM_KEY_SEALED_COLUMNS } from '../platform-keys/keys.service.js';
import { STORE_SETTINGS_SEALED_COLUMNS } from '../app-stores/store-settings.service.js';
import { OPERATOR_SEALED_COLUMNS } from '../operators/operators.service.js';
import { STUDIO_SEALED_COLUMNS } from '../portal/studio-developers.service.js';
import { PROVIDER_SETTINGS_SEALED_COLUMNS } from '../payment-providers/provider-settings.service.js';

/** Every stored column sealed under the master key: what a rotation must reseal. */
export const SEALED_COLUMNS: SealedColumn[] = [
  ...APP_SEALED_COLUMNS,
  ...TOKEN_SEALED_COLUMNS,
  ...PLATFORM_KEY_SEALED_COLUMNS,
  ...STORE_SETTINGS_SEALED_COLUMNS,
  ...OPERATOR_SEALED_COLUMNS,
  ...STUDIO_SEALED_COLUMNS,
  ...PROVIDER_SETTINGS_SEALED_COLUMNS,
];
