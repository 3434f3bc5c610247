/** What this container's SDK clients are built with; deployed bundles swap in lambda-credentials.ts. */
import type { AwsClientSettings } from '#shared/aws/settings.ts';
import { SDK_LIMITS, config } from '#shared/config.ts';

export function awsClientSettings(endpoint: string | undefined): AwsClientSettings {
  const { region, sdkTimeouts } = config();
  return { region, endpoint, ...SDK_LIMITS, ...sdkTimeouts };
}
