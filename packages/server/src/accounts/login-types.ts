/**
 * Login type codes of 2.2 and the provider name we give each. The names are
 * what `provider` of the profile (2.2) lists and what `loginType` of the open
 * id lookup (4.4) takes (only the three store/social ones there).
 */
export const LOGIN_TYPES = {
  0: 'guest',
  2: 'apple', // iOS store account
  3: 'google', // Android store account
  4: 'facebook', // social network
  5: 'game_store',
  6: 'chat_app',
  7: 'microblog',
  9: 'live_streaming',
  10: 'game_distribution',
  11: 'phone',
} as const satisfies Record<number, string>;

export type LoginTypeCode = keyof typeof LOGIN_TYPES;
export const GUEST = 0;
/** The overseas game-store login, the one 40021 applies to (section 7). */
export const GAME_STORE = 5;

export const LOGIN_TYPE_CODES = Object.keys(LOGIN_TYPES).map(Number) as LoginTypeCode[];

export function isLoginType(code: number): code is LoginTypeCode {
  return Object.hasOwn(LOGIN_TYPES, code);
}

export function providerName(code: number): string {
  return isLoginType(code) ? LOGIN_TYPES[code] : `type_${code}`;
}

/** 4.4: the Android store account, the iOS store account and the social network. */
export const SVC_ID_LOGIN_TYPES = { google: 3, apple: 2, facebook: 4 } as const;
export type SvcIdLoginType = keyof typeof SVC_ID_LOGIN_TYPES;
