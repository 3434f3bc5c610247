/** The stack's sign-in settings (docs/deploy.md, "Sign-in"): what every function reads, and the mail worker's one grant in SES. */
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';

export interface SignInProps {
  /** EMAIL_FROM of the mail worker, e.g. "Easel <no-reply@example.com>"; without it no code is sent. */
  emailFrom?: string;
  /** The verified SES identity the worker may send as: a domain or an address (default: the domain of emailFrom). */
  emailIdentity?: string;
  /** ALLOW_SIGN_UP: a verified address may create an account and organization; default invitation only. */
  allowSignUp?: boolean;
  /** SESSION_HOURS: how long a session lasts. */
  sessionHours?: number;
  /** WEBAUTHN_RP_ID: the domain passkeys belong to, when the editor and the API share a parent domain. */
  passkeyRpId?: string;
}

/** The sign-in settings every function reads (shared/config.ts); absent ones keep its defaults. */
export function signInEnvironment(signIn: SignInProps): Record<string, string> {
  const env: Record<string, string> = {};
  if (signIn.allowSignUp) env.ALLOW_SIGN_UP = 'true';
  if (signIn.sessionHours !== undefined) env.SESSION_HOURS = String(signIn.sessionHours);
  if (signIn.passkeyRpId !== undefined) env.WEBAUTHN_RP_ID = signIn.passkeyRpId;
  return env;
}

/** SendEmail as the one verified identity, from the one configured address: nothing else in SES, and nothing without emailFrom. */
export function grantSendEmail(worker: LambdaFunction, { emailFrom, emailIdentity }: SignInProps): void {
  if (!emailFrom) return;
  const address = /<([^>]+)>/.exec(emailFrom)?.[1] ?? emailFrom.trim();
  const identity = emailIdentity ?? address.slice(address.lastIndexOf('@') + 1);
  worker.addEnvironment('EMAIL_FROM', emailFrom);
  worker.addToRolePolicy(
    new PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [Stack.of(worker).formatArn({ service: 'ses', resource: 'identity', resourceName: identity })],
      conditions: { StringEquals: { 'ses:FromAddress': address } },
    }),
  );
}
