/** The DynamoDB document client of this container (the client: aws/dynamodb.ts; its settings: aws-clients.ts). */
import { DynamoClient } from '#shared/aws/dynamodb.ts';
import { config } from '#shared/config.ts';
import { awsClientSettings } from '#shared/wiring/aws-clients.ts';

export const dynamo = new DynamoClient(awsClientSettings(config().endpoints.dynamodb));
