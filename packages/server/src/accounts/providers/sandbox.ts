import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { SecretBox } from '../../crypto/secret-box.js';
import { AppError } from '../../errors/app-error.js';
import { Text } from '../../http/schemas.js';
import { GUEST, LOGIN_TYPE_CODES } from '../login-types.js';
import { normaliseEmail, type LoginProvider, type ProviderIdentity } from './provider.js';

/** One side of local@domain: no whitespace or @, and like TEXT_PATTERN (http/schemas.ts) no NUL or unpaired surrogate. */
const EMAIL_PART = '(?:[^\\s@\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])+';

/** What a sandbox assertion asserts (admin API body and CLI options). */
export const SandboxAssertionBody = Type.Object(
  {
    loginType: Type.Union(
      LOGIN_TYPE_CODES.filter((c) => c !== GUEST).map((c) => Type.Literal(c)),
      { description: 'Login type code (2.2) the assertion logs in with; not 0 (guest has its own login).' },
    ),
    openId: Text({ minLength: 1, maxLength: 255 }),
    unionId: Type.Optional(Type.Union([Text({ minLength: 1, maxLength: 255 }), Type.Null()])),
    nickname: Type.Optional(Type.Union([Text({ maxLength: 512 }), Type.Null()])),
    avatar: Type.Optional(Type.Union([Text({ maxLength: 2048 }), Type.Null()])),
    email: Type.Optional(
      Type.Union([Type.String({ maxLength: 320, pattern: `^${EMAIL_PART}@${EMAIL_PART}$` }), Type.Null()]),
    ),
    emailVerified: Type.Optional(Type.Boolean()),
    ttlSeconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3600, description: 'Validity of the assertion; default 600.' }),
    ),
  },
  { additionalProperties: false },
);
export type SandboxAssertionBody = Static<typeof SandboxAssertionBody>;

const CONTEXT = 'sandbox-login-assertion';
const Sealed = Type.Object({ identity: Type.Any(), exp: Type.Integer() });

/**
 * The sandbox provider (tests, demos; SANDBOX_LOGIN, never in production):
 * any identity, for any login type, asserted by the service itself. An
 * assertion is the identity sealed with the master key (AES-GCM), so only the
 * admin API / CLI can mint one and nobody can alter it.
 */
export class SandboxProvider implements LoginProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  mint(body: SandboxAssertionBody): { assertion: string; expiresAt: string } {
    const exp = this.now() + (body.ttlSeconds ?? 600) * 1000;
    const identity: ProviderIdentity = {
      loginType: body.loginType,
      openId: body.openId,
      unionId: body.unionId ?? null,
      nickname: body.nickname ?? null,
      avatar: body.avatar ?? null,
      email: normaliseEmail(body.email),
      emailVerified: body.email ? (body.emailVerified ?? false) : false,
    };
    return {
      assertion: `sbx.${this.box.seal(JSON.stringify({ identity, exp }), CONTEXT)}`,
      expiresAt: new Date(exp).toISOString(),
    };
  }

  async verify(credential: string): Promise<ProviderIdentity> {
    let sealed: unknown;
    try {
      if (!credential.startsWith('sbx.')) throw new Error('prefix');
      sealed = JSON.parse(this.box.open(credential.slice(4), CONTEXT));
    } catch {
      throw new AppError('INVALID_LOGIN_CREDENTIAL', 'credential: not a sandbox assertion minted by this service');
    }
    if (!Value.Check(Sealed, sealed))
      throw new AppError('INVALID_LOGIN_CREDENTIAL', 'credential: malformed sandbox assertion');
    if (sealed.exp <= this.now())
      throw new AppError(
        'INVALID_LOGIN_CREDENTIAL',
        `credential: the sandbox assertion expired at ${new Date(sealed.exp).toISOString()}`,
      );
    return sealed.identity as ProviderIdentity;
  }
}
