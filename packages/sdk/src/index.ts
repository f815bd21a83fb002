export { type SignableValue, MAX_SIGN_DEPTH, canonicalPairs, canonicalParams, md5Sign, md5Verify } from './md5.js';
export {
  type MacCredentials,
  type MacHeaderFailure,
  MacHeaderError,
  MAX_MAC_HEADER_LENGTH,
  parseMacAuthorization,
  type MacSignInput,
  type BuildMacAuthorizationOptions,
  DEFAULT_MAC_PORT,
  macSignBase,
  macSign,
  macVerify,
  buildMacAuthorization,
} from './mac.js';
export * from './callback.js';
export { DEFAULT_WINDOW_SECONDS, checkTimestamp, parseUnixSeconds } from './time.js';
