/**
 * What this container's clients in aws/ are built with. Credentials: the stack's bundler defines
 * EASEL_LAMBDA_BUNDLE (infra/constructs/easel-function.ts), so a deployed function's bundle holds
 * only the environment and the container endpoint; a local run or a test reaches the SDK's whole
 * chain (profiles, SSO, ...) when the environment has no keys, as the SDK clients do.
 */
import { containerOnly, environmentThen } from '#shared/aws/credentials.ts';
import type { AwsClientSettings } from '#shared/aws/transport.ts';
import { config } from '#shared/config.ts';
import { SDK_LIMITS } from '#shared/wiring/sdk-limits.ts';

export const credentials = environmentThen(
  process.env.EASEL_LAMBDA_BUNDLE === 'true' ? containerOnly : async () => (await import('@aws-sdk/credential-provider-node')).defaultProvider()(),
);

/** A client's settings: this container's region and credentials, the shared limits, and `endpoint` (the override of config.endpoints). */
export function awsClientSettings(endpoint: string | undefined): AwsClientSettings {
  return { region: config().region, endpoint, credentials, ...SDK_LIMITS };
}
