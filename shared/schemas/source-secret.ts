import * as v from 'valibot';
import { issuePath } from '#shared/schemas/issue-path.ts';
import { CaptureOptionFields, MAX_CREDENTIAL_BYTES, credentialBytes } from '#shared/schemas/screenshot.ts';

/**
 * What a source app's secret holds (docs/shots.md, "Behind a login"): the login its allowedHosts'
 * captures are sent with, and the key it signs intake webhooks with. Never logged, cached or returned.
 */
export const SourceAppSecret = v.pipe(
  v.strictObject({
    webhookSecret: v.optional(v.pipe(v.string(), v.minLength(1), v.description('What the app signs intake webhooks with.'))),
    headers: CaptureOptionFields.headers,
    cookies: CaptureOptionFields.cookies,
  }),
  v.check((secret) => credentialBytes(secret) <= MAX_CREDENTIAL_BYTES, `headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes as sent`),
);
export type SourceAppSecret = v.InferOutput<typeof SourceAppSecret>;

/** Where a secret failed its shape, by path alone: a secret's values are never repeated. */
const pathOf = (issue: v.BaseIssue<unknown>) => issuePath(issue) || 'the whole secret';

/** A secret's text as a login, or what in it is not valid (a path, never a value). */
export function parseSourceSecret(text: string): { secret: SourceAppSecret } | { invalid: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { invalid: 'its text (not JSON)' };
  }
  const parsed = v.safeParse(SourceAppSecret, json);
  return parsed.success ? { secret: parsed.output } : { invalid: pathOf(parsed.issues[0]) };
}
