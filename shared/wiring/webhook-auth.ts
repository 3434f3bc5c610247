/** The webhook check on this container's table and secret store: `route(row, fn, { verifyWebhook })`. */
import { config } from '#shared/config.ts';
import type { HttpMiddleware } from '#shared/http/handler.ts';
import { verifyWebhook as verifyWith, type VerifyWebhookOptions, type WebhookSources } from '#shared/http/webhook-auth.ts';
import { OrganizationStore } from '#shared/store/organizations.ts';
import { SourceAppStore } from '#shared/store/source-apps.ts';
import { dynamo } from '#shared/wiring/dynamo.ts';
import { sourceSecretStore } from '#shared/wiring/source-secrets.ts';

let sources: WebhookSources | undefined;

function webhookSources(): WebhookSources {
  if (sources) return sources;
  const table = { dynamo, table: config().tables.workspace };
  const apps = new SourceAppStore(table);
  const organizations = new OrganizationStore(table);
  sources = {
    locate: (sourceAppId) => apps.locate(sourceAppId),
    organization: (organizationId) => organizations.getOrganization(organizationId, true),
    secret: async (reference) => sourceSecretStore()?.read(reference),
  };
  return sources;
}

export const verifyWebhook = (options: Omit<VerifyWebhookOptions, 'sources'>): HttpMiddleware => verifyWith({ ...options, sources: webhookSources });
