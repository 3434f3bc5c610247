/** The SQS client of this container (limits: sdk-limits.ts). */
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#shared/config.ts';
import { SDK_LIMITS, requestHandler } from '#shared/wiring/sdk-limits.ts';

const cfg = config();

export const sqs = new SQSClient({ region: cfg.region, endpoint: cfg.endpoints.sqs, maxAttempts: SDK_LIMITS.maxAttempts, requestHandler });
