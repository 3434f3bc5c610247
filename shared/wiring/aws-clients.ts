/**
 * What this container's SDK clients are built with: its region, the shared limits, and the SDK's
 * default credentials (in a deployed bundle, only the links Lambda uses: lambda-credentials.ts).
 */
import type { AwsClientSettings } from '#shared/aws/settings.ts';
import { config } from '#shared/config.ts';
import { SDK_LIMITS } from '#shared/wiring/sdk-limits.ts';

/** A client's settings: this container's region, the shared limits, and `endpoint` (the override of config.endpoints). */
export function awsClientSettings(endpoint: string | undefined): AwsClientSettings {
  return { region: config().region, endpoint, ...SDK_LIMITS };
}
