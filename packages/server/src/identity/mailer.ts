import type { Transporter } from 'nodemailer';

/** One e-mail: to one address, plain text. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail; null when SMTP_URL is unset (the console then shows an invitation's link to copy). */
export type Mailer = ((mail: Mail) => Promise<void>) | null;

/**
 * The SMTP mailer (nodemailer) of `SMTP_URL` (smtp://user:pass@host:587, smtps://... for implicit TLS), sending from
 * `from`. Each mail is sent while the request waits: the caller records whether it went out.
 */
export function smtpMailer(url: string | undefined, from: string): Mailer {
  if (!url) return null;
  // nodemailer is loaded with the first mail, not at start: ~7 MB of heap (issue 44, beside passkeys.service.ts).
  let transport: Promise<Transporter> | undefined;
  return async (mail) => {
    transport ??= import('nodemailer').then((m) => m.default.createTransport(url));
    await (await transport).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
  };
}
