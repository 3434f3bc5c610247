/**
 * The rows of functions/auth/: e-mail codes and passkeys that issue the session cookie, and what
 * a signed-in user sees and ends of their sessions, passkeys and invitations.
 */
import * as endpoint from '#shared/routes/endpoints.ts';
import { AUTH_READS, defineRow, JSON_BODY } from '#shared/routes/row.ts';
import {
  EmailCodeRequest,
  EmailCodeVerifyRequest,
  InvitationParams,
  PasskeyParams,
  PasskeyRegisterRequest,
  PasskeySignInRequest,
  SessionParams,
} from '#shared/schemas/sign-in.ts';

/** What every sign-in row shares; one vCPU, as the shell (routes/shell.ts). */
const SIGN_IN = { memory: 1769, timeout: 10, listed: true, tag: 'Sign-in' } as const;
/** Anonymous, origin-checked even without a cookie (login CSRF), the session cookie read when sent. */
const ANONYMOUS = { ...SIGN_IN, auth: 'signIn' } as const;
/** A signed-in user's own records: the session alone, no organization needed. */
const SIGNED_IN = { ...SIGN_IN, auth: 'session', errors: [401, 403, 503] } as const;

/** The session, its user, the user's organizations (the active one) and the address's invitations. */
const ISSUE = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'] as const;

export const sendEmailCode = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.sendEmailCode,
  ...ANONYMOUS,
  handler: 'functions/auth/send-email-code.ts',
  // The per-address counter and the queued address: no workspace data, so no answer can differ by account.
  access: { tables: { rate: ['UpdateItem'] }, queues: { mail: 'send' } },
  body: { ...JSON_BODY, schema: EmailCodeRequest },
  status: 202,
  errors: [400, 403, 413, 429, 503],
  extensions: { 'x-easel-rate-limit': { limit: 10, windowSeconds: 600 } },
}));

export const verifyEmailCode = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.verifyEmailCode,
  ...ANONYMOUS,
  handler: 'functions/auth/verify-email-code.ts',
  // The code's tries and use, a sign-up's user, organization and membership, the session.
  access: { tables: { rate: ['UpdateItem'], workspace: ISSUE } },
  body: { ...JSON_BODY, schema: EmailCodeVerifyRequest },
  errors: [400, 403, 413, 429, 503],
  extensions: { 'x-easel-rate-limit': { limit: 30, windowSeconds: 600 } },
}));

export const passkeySignInOptions = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.passkeySignInOptions,
  ...ANONYMOUS,
  handler: 'functions/auth/passkey-sign-in-options.ts',
  access: { tables: { rate: ['UpdateItem'], workspace: ['PutItem'] } },
  errors: [403, 429, 503],
  extensions: { 'x-easel-rate-limit': { limit: 30, windowSeconds: 60 } },
}));

export const signInWithPasskey = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.signInWithPasskey,
  ...ANONYMOUS,
  handler: 'functions/auth/sign-in-with-passkey.ts',
  access: { tables: { rate: ['UpdateItem'], workspace: ISSUE } },
  body: { ...JSON_BODY, schema: PasskeySignInRequest },
  errors: [400, 401, 403, 413, 429, 503],
  extensions: { 'x-easel-rate-limit': { limit: 30, windowSeconds: 60 } },
}));

export const getSession = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getSession,
  ...ANONYMOUS,
  handler: 'functions/auth/get-session.ts',
  // The session, its user and invitations; UpdateItem stamps when it was last seen.
  access: { tables: { workspace: ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem'] } },
  errors: [401, 503],
}));

export const signOut = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.signOut,
  ...ANONYMOUS,
  handler: 'functions/auth/sign-out.ts',
  access: { tables: { workspace: ['UpdateItem'] } },
  status: 204,
  errors: [403, 503],
}));

export const listSessions = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listSessions,
  ...SIGNED_IN,
  handler: 'functions/auth/list-sessions.ts',
  access: { tables: { workspace: [...AUTH_READS, 'Query'] } },
}));

export const endOtherSessions = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.endOtherSessions,
  ...SIGNED_IN,
  handler: 'functions/auth/end-other-sessions.ts',
  access: { tables: { workspace: [...AUTH_READS, 'Query', 'UpdateItem'] } },
}));

export const endSession = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.endSession,
  ...SIGNED_IN,
  handler: 'functions/auth/end-session.ts',
  access: { tables: { workspace: [...AUTH_READS, 'Query', 'UpdateItem'] } },
  params: SessionParams,
  status: 204,
  errors: [...SIGNED_IN.errors, 404],
}));

export const passkeyRegistrationOptions = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.passkeyRegistrationOptions,
  ...SIGNED_IN,
  handler: 'functions/auth/passkey-registration-options.ts',
  // The user and their passkeys (none registered twice), and the stored challenge.
  access: { tables: { workspace: [...AUTH_READS, 'Query', 'PutItem'] } },
}));

export const registerPasskey = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.registerPasskey,
  ...SIGNED_IN,
  handler: 'functions/auth/register-passkey.ts',
  access: { tables: { workspace: [...AUTH_READS, 'UpdateItem', 'PutItem'] } },
  body: { ...JSON_BODY, schema: PasskeyRegisterRequest },
  status: 201,
  errors: [...SIGNED_IN.errors, 400, 413],
}));

export const listPasskeys = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listPasskeys,
  ...SIGNED_IN,
  handler: 'functions/auth/list-passkeys.ts',
  access: { tables: { workspace: [...AUTH_READS, 'Query'] } },
}));

export const deletePasskey = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.deletePasskey,
  ...SIGNED_IN,
  handler: 'functions/auth/delete-passkey.ts',
  access: { tables: { workspace: [...AUTH_READS, 'Query', 'DeleteItem'] } },
  params: PasskeyParams,
  status: 204,
  errors: [...SIGNED_IN.errors, 404],
}));

export const listMyInvitations = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.listMyInvitations,
  ...SIGNED_IN,
  handler: 'functions/auth/list-my-invitations.ts',
  access: { tables: { workspace: [...AUTH_READS, 'Query'] } },
}));

export const acceptInvitation = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.acceptInvitation,
  ...SIGNED_IN,
  handler: 'functions/auth/accept-invitation.ts',
  // The invitation marked accepted, then the membership written.
  access: { tables: { workspace: [...AUTH_READS, 'Query', 'UpdateItem', 'PutItem'] } },
  params: InvitationParams,
  errors: [...SIGNED_IN.errors, 400, 404],
}));
