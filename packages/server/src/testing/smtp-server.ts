import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** One mail the loopback SMTP server took: the envelope and the raw message (headers and body). */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The body with quoted-printable soft breaks and escapes undone (how nodemailer writes long lines). */
  text: string;
}

export interface TestSmtpServer {
  url: string;
  mails: ReceivedMail[];
  /** Waits until `n` mails have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (body: string) =>
  body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A real SMTP server (smtp-server) on a loopback port, in plain SMTP without STARTTLS or AUTH, keeping every mail it
 * is given: the test's mail relay (SMTP_URL=smtp://127.0.0.1:<port>).
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const body = raw
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n\n');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: /quoted-printable/i.test(raw) ? decodeQuotedPrintable(body) : body,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`only ${mails.length} of ${n} mails arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
