/** Sign-in mail: Amazon SES, or a local outbox file `npm start` echoes and `npm run admin -- outbox` lists; only the mail worker bundles these. */
import { appendFile } from 'node:fs/promises';
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { guard } from '#shared/store/outage.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** One plain-text message per send, from the verified identity `from`. */
export function sesMailer(client: SESv2Client, from: string): Mailer {
  return {
    async send(mail) {
      await guard('Amazon SES', () =>
        client.send(
          new SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: [mail.to] },
            Content: { Simple: { Subject: { Data: mail.subject, Charset: 'UTF-8' }, Body: { Text: { Data: mail.text, Charset: 'UTF-8' } } } },
          }),
        ),
      );
    },
  };
}

/** One JSON line per message: `{ at, to, subject, text }`. */
export function outboxMailer(file: string, now: () => Date = () => new Date()): Mailer {
  return {
    async send(mail) {
      await appendFile(file, `${JSON.stringify({ at: now().toISOString(), ...mail })}\n`, { mode: 0o600 });
    },
  };
}
