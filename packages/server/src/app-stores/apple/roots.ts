import { readFileSync } from 'node:fs';

/**
 * Apple's public root certificate that StoreKit 2 transactions and App Store Server Notifications V2 chain to:
 * Apple Root CA - G3 (SHA-256 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79,
 * valid until 2039-04-30), shipped as packages/server/certs/apple/AppleRootCA-G3.pem. The library embeds no root.
 */
export const APPLE_ROOT_FILES = ['AppleRootCA-G3.pem'] as const;

/** Read from dist/app-stores/apple/ up to the package's certs/apple/. */
export function appleRootCertificates(): Buffer[] {
  return APPLE_ROOT_FILES.map((name) => readFileSync(new URL(`../../../certs/apple/${name}`, import.meta.url)));
}
