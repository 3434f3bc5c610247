/** What every SDK client is built with: where, as whom, and the limits of SDK_LIMITS (config.ts). */
import { buffer } from 'node:stream/consumers';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

export interface AwsClientSettings {
  region: string;
  /** A local stand-in's origin. */
  endpoint?: string;
  /** The SDK's default chain when absent. */
  credentials?: DynamoDBClientConfig['credentials'];
  maxAttempts: number;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  socketTimeoutMs: number;
}

/** A setting that stays unset, given so that the SDK does not look for it. */
export const unset = async (): Promise<undefined> => undefined;

export function clientConfig(settings: AwsClientSettings) {
  return {
    region: settings.region,
    endpoint: settings.endpoint,
    credentials: settings.credentials,
    maxAttempts: settings.maxAttempts,
    requestHandler: {
      connectionTimeout: settings.connectionTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      // Without it the SDK only logs when requestTimeout passes, and keeps waiting.
      throwOnRequestTimeout: true,
      socketTimeout: settings.socketTimeoutMs,
    },
    // The SDK's defaults, given: any left out is looked up in the environment and ~/.aws/config on
    // the first request, which waits for the disk. Endpoints come from Easel's configuration only.
    defaultsMode: 'legacy' as const,
    retryMode: 'standard',
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    ignoreConfiguredEndpointUrls: true,
    disableClockSkewCorrection: false,
    authSchemePreference: [] as string[],
    userAgentAppId: unset,
    // The SDK's collector asks whether a Node stream is a web ReadableStream; naming that global loads web streams at cold start.
    streamCollector: buffer,
  };
}
