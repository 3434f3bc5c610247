/** The sign-in mail queue, for the route that asks for a code: it bundles no mailer and no identity store. */
import { config } from '#shared/config.ts';
import { SignInMailQueue } from '#shared/store/mail-queue.ts';
import { sqs } from '#shared/wiring/sqs.ts';

let queue: SignInMailQueue | undefined;

export const signInMailQueue = (): SignInMailQueue => (queue ??= new SignInMailQueue({ sqs, queueUrl: config().queues.mail }));
