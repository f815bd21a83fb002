import { Type } from '@sinclair/typebox';
import { SafeInteger, Text } from '../http/schemas.js';
import { NullableTime } from './people.schemas.js';
import { IdParam } from '../http/route-params.js';

/** The wire shapes of passkeys (WebAuthn) and of the invitation's completion (identity/, docs/operators.md). */

const B64URL = (maxLength: number) => Type.String({ pattern: '^[A-Za-z0-9_-]*$', maxLength });
const Transport = Type.String({ pattern: '^[a-z-]{1,32}$' });
/** The client extension results browsers give (credProps: asked for by the registration options). */
const Extensions = Type.Object(
  {
    credProps: Type.Optional(Type.Object({ rk: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
    appid: Type.Optional(Type.Boolean()),
    hmacCreateSecret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Attachment = Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]));

/** What navigator.credentials.create() gave, as @simplewebauthn/browser's startRegistration answers it. */
export const RegistrationResponse = Type.Object(
  {
    id: B64URL(1366),
    rawId: B64URL(1366),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64URL(4096),
        attestationObject: B64URL(16384),
        authenticatorData: Type.Optional(B64URL(16384)),
        transports: Type.Optional(Type.Array(Transport, { maxItems: 8 })),
        publicKeyAlgorithm: Type.Optional(SafeInteger()),
        publicKey: Type.Optional(B64URL(4096)),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: Extensions,
    authenticatorAttachment: Attachment,
  },
  { additionalProperties: false },
);

/** What navigator.credentials.get() gave, as @simplewebauthn/browser's startAuthentication answers it. */
export const AuthenticationResponse = Type.Object(
  {
    id: B64URL(1366),
    rawId: B64URL(1366),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: B64URL(4096),
        authenticatorData: B64URL(16384),
        signature: B64URL(4096),
        userHandle: Type.Optional(B64URL(512)),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: Extensions,
    authenticatorAttachment: Attachment,
  },
  { additionalProperties: false },
);

/** The options for the browser (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON), as generated. */
export const WebAuthnOptions = Type.Unknown({
  description: "Hand it to @simplewebauthn/browser's startRegistration/startAuthentication.",
});

const PasskeyName = Text({ minLength: 1, maxLength: 64, description: 'Your name for it ("laptop", "phone").' });

export const PasskeyBody = Type.Object(
  { name: PasskeyName, response: RegistrationResponse },
  { additionalProperties: false },
);

export const Passkey = Type.Object(
  {
    passkeyId: Type.Integer(),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: NullableTime,
  },
  { $id: 'Passkey', title: 'Passkey (never its key)' },
);

export const PasskeyIdParams = Type.Object({ passkeyId: IdParam() });

export const PasskeySignInBody = Type.Object({ response: AuthenticationResponse }, { additionalProperties: false });

// --- the invitee's side of an invitation ---

const Token = Type.String({
  pattern: '^gpi_[A-Za-z0-9_-]{43}$',
  description: 'The token of the link (after #/invitation/).',
});

export const InvitationTokenBody = Type.Object({ token: Token }, { additionalProperties: false });

export const InvitationAbout = Type.Object({
  name: Type.String(),
  kind: Type.Union([Type.Literal('invite'), Type.Literal('reset')]),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const InvitationTotp = Type.Object({
  totpSecret: Type.String({ description: 'Base32, for your authenticator app; confirm it with a code.' }),
  totpUri: Type.String(),
});

export const InvitationAcceptBody = Type.Object(
  {
    token: Token,
    password: Text({ minLength: 12, maxLength: 1024 }),
    totp: Type.Optional(
      Text({ minLength: 1, maxLength: 16, description: 'A code of the secret /invitation/totp gave.' }),
    ),
    passkey: Type.Optional(PasskeyBody),
  },
  { additionalProperties: false },
);

export const InvitationAccepted = Type.Object({
  name: Type.String(),
  recoveryCodes: Type.Array(Type.String(), { description: 'Each good for one sign-in; shown once.' }),
});
