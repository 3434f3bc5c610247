import { dynamoDocumentClient } from '#shared/aws/dynamodb.ts';
import { config } from '#shared/config.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

export const dynamo = dynamoDocumentClient(awsClientSettings(config().endpoints.dynamodb));
