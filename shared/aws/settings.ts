/** What every SDK client is built with: where, as whom, and the limits of wiring/sdk-limits.ts. */
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
  };
}
