// The vendored @simplewebauthn/browser bundle (kit/passkeys.js imports it for its side effect): it sets this global.
declare var SimpleWebAuthnBrowser: typeof import('@simplewebauthn/browser');
