/** The store adapters' public surface: App Store (channel 1) and Google Play (channel 2). */
export * from './types.js';
export * from './errors.js';
export { AppleVerifier, type AppleVerifierConfig, type AppleEnvironment } from './apple/verify.js';
export { AppleStoreApi, createAppleApiClient, type AppleApiConfig } from './apple/api.js';
export { appleRootCertificates } from './apple/roots.js';
export { GooglePublisher, type GooglePublisherConfig } from './google/publisher.js';
export { GooglePushVerifier, type GooglePushConfig, type PubSubPushBody } from './google/push.js';
export { serviceAccountClient, type GoogleServiceAccountKey } from './google/auth.js';
