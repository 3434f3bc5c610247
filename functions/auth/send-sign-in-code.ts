import { SignInMailMessage } from '#shared/schemas/sign-in.ts';
import { sendSignInCode } from '#shared/services/sign-in/email-codes.ts';
import { batchHandler } from '#shared/sqs/batch.ts';
import { codeMailDeps } from '#shared/wiring/sign-in-mail.ts';

const deps = codeMailDeps();

/** Mail-queue worker: mails a code to each queued address that may sign in; the outcome is only logged. */
export const handler = batchHandler({ name: 'sign-in code', body: SignInMailMessage }, async (message) => ({ outcome: await sendSignInCode(deps, message) }));
