/** What every SDK client of Easel is built with: where, as whom, and the time limits of wiring/sdk-limits.ts. */
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

export interface AwsClientSettings {
  region: string;
  /** Origin of a local stand-in; the service's regional endpoint when absent. */
  endpoint?: string;
  /** The SDK's default chain when absent (in a deployed bundle, wiring/lambda-credentials.ts). */
  credentials?: DynamoDBClientConfig['credentials'];
  maxAttempts: number;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  socketTimeoutMs: number;
}

/** The part of an SDK client's configuration every service shares. */
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
