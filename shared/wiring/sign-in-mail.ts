/** The mail worker's dependencies: the mailer is SES from EMAIL_FROM, or the local outbox. */
import { sesv2Client } from '#shared/aws/sesv2.ts';
import { config } from '#shared/config.ts';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import type { CodeMailDeps } from '#shared/services/sign-in/email-codes.ts';
import { outboxMailer, sesMailer, type Mailer } from '#shared/store/mailers.ts';
import { accountDeps, emailCodeStore } from '#shared/wiring/sign-in.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

let mail: CodeMailDeps | undefined;

function mailer(): Mailer {
  const settings = config().signIn.mail;
  if (settings?.kind === 'ses') return sesMailer(sesv2Client(awsClientSettings(undefined)), settings.from);
  if (settings?.kind === 'outbox') return outboxMailer(settings.file);
  // Deployed without EMAIL_FROM: the message is retried, then dead-lettered, and the alarm says so.
  return { send: async () => Promise.reject(new UpstreamUnavailableError('No mail is configured: set EMAIL_FROM (-c emailFrom=… on deploy).')) };
}

export function codeMailDeps(): CodeMailDeps {
  mail ??= { accounts: accountDeps(), codes: emailCodeStore(), mailer: mailer(), site: new URL(config().publicBaseUrl).host };
  return mail;
}
