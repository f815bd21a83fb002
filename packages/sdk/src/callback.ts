/** Spec 5.3: platform-to-game call signature (RSA-SHA256, PKCS#1 v1.5). */
export {
  CALLBACK_HEADERS,
  type CallbackSignInput,
  type BuildCallbackHeadersOptions,
  callbackSignBase,
  callbackSignBaseText,
  signCallback,
  buildCallbackHeaders,
  freshCallbackReplay,
  callbackHeaders,
  stripQuery,
} from './callback-sign.js';
export {
  type CallbackVerifyFailure,
  CallbackVerificationError,
  type PublicKeyInput,
  type VerifyCallbackOptions,
  type VerifiedCallback,
  verifyCallback,
} from './callback-verify.js';
