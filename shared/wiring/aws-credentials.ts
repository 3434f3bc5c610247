/**
 * The credentials of this container's clients in aws/. The stack's bundler defines
 * EASEL_LAMBDA_BUNDLE (infra/constructs/easel-function.ts), so a deployed function's bundle holds
 * only the environment and the container endpoint; a local run or a test reaches the SDK's whole
 * chain (profiles, SSO, ...) when the environment has no keys, as the SDK clients do.
 */
import { containerOnly, environmentThen } from '#shared/aws/credentials.ts';

export const credentials = environmentThen(
  process.env.EASEL_LAMBDA_BUNDLE === 'true' ? containerOnly : async () => (await import('@aws-sdk/credential-provider-node')).defaultProvider()(),
);
