/**
 * Auth of 'webhook' rows: the source app the path names, its webhook secret, and the signature over the exact bytes received,
 * all before the body is parsed (docs/identity.md, "Release intake"). A key or a cookie grants nothing here.
 */
import { ForbiddenError, InvalidRequestError, NotFoundError, PayloadTooLargeError, UnauthorizedError } from '#shared/errors.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { setPrincipal } from '#shared/http/principals.ts';
import { bodyBytes, parseWith } from '#shared/http/validation.ts';
import { effectivePlan, type Entitlement } from '#shared/identity/plans.ts';
import type { SourceAppPrincipal } from '#shared/identity/principal.ts';
import { githubSignatureMatches, signingOf, verifyStandardWebhook } from '#shared/identity/webhooks.ts';
import { log } from '#shared/log.ts';
import type { AnySchema, LambdaEvent } from '#shared/route-types.ts';
import { deliveryIdIssue } from '#shared/schemas/intake.ts';
import type { SourceApp } from '#shared/schemas/source-apps.ts';
import { parseSourceSecret } from '#shared/schemas/source-secret.ts';

/** What the check reads: the app and whose it is, its organization, and secrets by reference. */
export interface WebhookSources {
  locate(sourceAppId: string): Promise<{ sourceApp: SourceApp; workspaceId: string; organizationId: string } | undefined>;
  organization(organizationId: string): Promise<{ entitlement: Entitlement; deletionState: string } | undefined>;
  /** The secret's text; undefined when it is missing or no secret store is configured. */
  secret(reference: string): Promise<string | undefined>;
}

export interface VerifyWebhookOptions {
  params: AnySchema;
  /** The row's body bound: a larger body is 413 before any secret is read. */
  maxBytes: number;
  /** Called on every request, so it may load lazily. */
  sources: () => WebhookSources;
}

const SIGN_HINT =
  'Sign the exact body with the webhookSecret in the source app\'s secret: GitHub\'s X-Hub-Signature-256, or the Standard Webhooks headers for any other provider (docs/identity.md, "Release intake").';

/** One answer for every way a signature can fail; what failed goes to the log only. */
const refused = (cause: string, hint = SIGN_HINT) => new UnauthorizedError({ hint, cause });

async function webhookSecretOf(app: SourceApp, sources: WebhookSources): Promise<string> {
  if (!app.secretReference) throw refused(`source app ${app.id} names no secret (secretReference)`);
  const text = await sources.secret(app.secretReference);
  if (text === undefined) throw refused(`the secret ${app.secretReference} of source app ${app.id} is missing`);
  const parsed = parseSourceSecret(text);
  if ('invalid' in parsed) throw refused(`the secret ${app.secretReference} of source app ${app.id} is unusable: ${parsed.invalid} is not valid`);
  if (!parsed.secret.webhookSecret) throw refused(`the secret ${app.secretReference} of source app ${app.id} has no webhookSecret`);
  return parsed.secret.webhookSecret;
}

function verify(app: SourceApp, secret: string, body: Buffer, event: LambdaEvent): Pick<SourceAppPrincipal, 'signing' | 'deliveryId' | 'event'> {
  const headers = event.headers ?? {};
  const signing = signingOf(app.provider);
  if (signing === 'github') {
    const signature = headers['x-hub-signature-256'];
    if (!githubSignatureMatches(secret, body, signature)) throw refused(signature ? 'X-Hub-Signature-256 does not match' : 'no X-Hub-Signature-256');
    const deliveryId = headers['x-github-delivery'];
    if (!deliveryId) throw new InvalidRequestError('Missing header X-GitHub-Delivery', 'GitHub names each delivery in X-GitHub-Delivery; send it.');
    return { signing, deliveryId, ...(headers['x-github-event'] ? { event: headers['x-github-event'] } : {}) };
  }
  const verdict = verifyStandardWebhook(secret, body, headers);
  if (!verdict.valid) {
    throw verdict.stale
      ? refused(
          verdict.reason,
          'webhook-timestamp is more than 5 minutes from the server’s clock: sign each delivery when it is sent, and check the sender’s clock.',
        )
      : refused(verdict.reason);
  }
  return { signing, deliveryId: headers['webhook-id']! };
}

export function verifyWebhook(options: VerifyWebhookOptions): HttpMiddleware {
  const { params, maxBytes, sources } = options;
  return {
    before: async (request) => {
      const { event } = request;
      const { sourceAppId } = parseWith(params, event.pathParameters ?? {}, 'path') as { sourceAppId: string };
      const body = bodyBytes(event);
      if (body.length > maxBytes) throw new PayloadTooLargeError(maxBytes);
      const found = await sources().locate(sourceAppId);
      const organization = found && (await sources().organization(found.organizationId));
      if (!found || !organization) {
        throw new NotFoundError('Source app not found', 'No source app has this id: the intake address names the id POST /api/v1/source-apps answered.');
      }
      if (organization.deletionState !== 'active') {
        throw new ForbiddenError(
          'The organization of this source app is being deleted: it takes no releases.',
          `organization ${found.organizationId} is ${organization.deletionState}`,
        );
      }
      const secret = await webhookSecretOf(found.sourceApp, sources());
      const delivery = verify(found.sourceApp, secret, body, event);
      const issue = deliveryIdIssue(delivery.deliveryId);
      if (issue) throw new InvalidRequestError('Invalid delivery id', `The delivery id (X-GitHub-Delivery or webhook-id) must be ${issue}.`);
      const principal: SourceAppPrincipal = {
        kind: 'sourceApp',
        sourceApp: found.sourceApp,
        organizationId: found.organizationId,
        workspaceId: found.workspaceId,
        plan: effectivePlan(organization.entitlement),
        ...delivery,
      };
      setPrincipal(request, principal);
      log.debug('webhook verified', { sourceAppId, organizationId: found.organizationId, signing: delivery.signing, deliveryId: delivery.deliveryId });
    },
  };
}
