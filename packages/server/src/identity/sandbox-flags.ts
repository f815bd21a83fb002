import { Type, type Static } from '@sinclair/typebox';
import type { Config } from '../config/config.js';

/**
 * Which sandboxes are on (issue 41), on the console's and the portal's session answers, so both show a banner: a
 * sandbox payment or sign-in must never go unnoticed. Never on in production (config/config.ts refuses it).
 */
export const SandboxFlags = Type.Object(
  {
    payments: Type.Boolean({ description: 'SANDBOX_PAYMENTS: orders can be paid through the sandbox channel' }),
    login: Type.Boolean({ description: 'SANDBOX_LOGIN: players can sign in with minted sandbox assertions' }),
  },
  { additionalProperties: false },
);

export function sandboxFlags(config: Pick<Config, 'SANDBOX_PAYMENTS' | 'SANDBOX_LOGIN'>): Static<typeof SandboxFlags> {
  return { payments: config.SANDBOX_PAYMENTS, login: config.SANDBOX_LOGIN };
}
