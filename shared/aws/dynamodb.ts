import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { clientConfig, type AwsClientSettings } from '#shared/aws/settings.ts';
import { traceAwsCalls } from '#shared/aws/tracing.ts';

/** Leaves `undefined` attributes out, as the stores write optional fields. */
export function dynamoDocumentClient(settings: AwsClientSettings): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    ...clientConfig(settings),
    // DynamoDB's own lookups, at their defaults (see clientConfig()).
    accountIdEndpointMode: 'preferred',
    endpointDiscoveryEnabled: false,
  });
  traceAwsCalls(client);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
