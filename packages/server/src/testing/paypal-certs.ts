/**
 * Certificates for the fake PayPal's webhook signatures, made by the test with @peculiar/x509: a root CA the service is
 * told to trust (PAYPAL_CERT_ROOTS_FILE), an intermediate, and a signing certificate issued like PayPal's to
 * messageverificationcerts.paypal.com (RSA 2048, SHA-256). `forged` makes a chain of the same shape under a root nobody
 * trusts: what an attacker could make.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { KeyObject, webcrypto } from 'node:crypto';

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
} as const;

export interface PaypalTestChain {
  /** The root's PEM: the trusted root of the service under test. */
  rootPem: string;
  /** What the certificate URL serves: the signing certificate, then the intermediate (PEM). */
  chainPem: string;
  /** The signing certificate's private key (SHA256withRSA). */
  signingKey: KeyObject;
}

export interface PaypalChainOptions {
  /** The signing certificate's common name (default PayPal's). */
  commonName?: string;
  notBefore?: Date;
  notAfter?: Date;
  name?: string;
}

async function keys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

export async function makePaypalChain(options: PaypalChainOptions = {}): Promise<PaypalTestChain> {
  const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
  const notAfter = options.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const name = options.name ?? 'Test';
  const [rootKeys, intKeys, leafKeys] = await Promise.all([keys(), keys(), keys()]);
  const ca = (pathLength?: number) => [
    new x509.BasicConstraintsExtension(true, pathLength, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} High Assurance EV Root CA, O=${name} Inc, C=US`,
    notBefore: new Date(notBefore.getTime() - 86_400_000),
    notAfter: new Date(notAfter.getTime() + 86_400_000),
    keys: rootKeys,
    signingAlgorithm: RSA,
    extensions: ca(),
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} SHA2 High Assurance Server CA, O=${name} Inc, C=US`,
    issuer: root.subject,
    notBefore,
    notAfter,
    signingKey: rootKeys.privateKey,
    publicKey: intKeys.publicKey,
    signingAlgorithm: RSA,
    extensions: ca(0),
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '03',
    subject: `CN=${options.commonName ?? 'messageverificationcerts.paypal.com'}, O=PayPal Inc, L=San Jose, ST=California, C=US`,
    issuer: intermediate.subject,
    notBefore,
    notAfter,
    signingKey: intKeys.privateKey,
    publicKey: leafKeys.publicKey,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return {
    rootPem: root.toString('pem'),
    chainPem: `${leaf.toString('pem')}\n${intermediate.toString('pem')}\n`,
    signingKey: KeyObject.from(leafKeys.privateKey),
  };
}
