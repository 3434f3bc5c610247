import { SQSClient } from '@aws-sdk/client-sqs';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';

export const sqsClient = (settings: AwsClientSettings): SQSClient => new SQSClient(clientConfig(settings));
