import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';

/** Leaves `undefined` attributes out, as the stores write optional fields. */
export function dynamoDocumentClient(settings: AwsClientSettings): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(settings)), { marshallOptions: { removeUndefinedValues: true } });
}
