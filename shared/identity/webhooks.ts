/** A source app's webhook signature over the exact bytes: GitHub's X-Hub-Signature-256 (HMAC-SHA256, hex) or Standard Webhooks. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookSigning } from '#shared/identity/principal.ts';

/** A fresh signing secret in the Standard Webhooks form (`whsec_` and 32 random bytes, base64); GitHub takes it as it is. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The app's provider decides: `github` (any case) signs as GitHub, every other provider with Standard Webhooks. */
export function signingOf(provider: string): WebhookSigning {
  return provider.toLowerCase() === 'github' ? 'github' : 'standard';
}

/** Whether `header` is `sha256=` and the hex HMAC of `body` under `secret`, compared in constant time. */
export function githubSignatureMatches(secret: string, body: Uint8Array, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const presented = Buffer.from(header);
  // The length of a well-formed header is public (71 characters): only its content is compared in constant time.
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export type StandardVerdict = { valid: true } | { valid: false; stale: boolean; reason: string };

/** `webhook-signature` (`v1,<base64>`, space-separated) over `<webhook-id>.<webhook-timestamp>.<body>`, the timestamp within 5 minutes. */
export function verifyStandardWebhook(secret: string, body: Buffer, headers: Record<string, string | undefined>): StandardVerdict {
  let hook: Webhook;
  try {
    hook = new Webhook(secret);
  } catch {
    return { valid: false, stale: false, reason: 'the webhookSecret is not a Standard Webhooks secret (whsec_ and base64)' };
  }
  const signed = {
    'webhook-id': headers['webhook-id'] ?? '',
    'webhook-timestamp': headers['webhook-timestamp'] ?? '',
    'webhook-signature': headers['webhook-signature'] ?? '',
  };
  try {
    // Parsing is validation's, after this check, with strict UTF-8.
    hook.verify(body, signed, { jsonParse: false });
    return { valid: true };
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return { valid: false, stale: /timestamp too (old|new)/.test(error.message), reason: error.message };
  }
}
