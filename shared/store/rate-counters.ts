/** Fixed-window counters: a conditional `ADD` counts a request unless the limit is reached, atomically, so racing containers stay exact. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { guard } from '#shared/store/outage.ts';

/** The port the rate limiter counts through; tests substitute an in-memory one. */
export interface CounterStore {
  /** Adds `amount` (default 1): the new count, or undefined (unchanged) when it would pass `limit`; `expiresAt` (epoch seconds) is the TTL. */
  incrementBelow(key: string, limit: number, expiresAt: number, amount?: number): Promise<number | undefined>;
}

/** A CounterStore on a DynamoDB table whose partition key is `pk` and TTL attribute `expiresAt`. */
export function dynamoCounterStore(client: DynamoDBDocumentClient, tableName: string): CounterStore {
  return {
    incrementBelow: (key, limit, expiresAt, amount = 1) =>
      guard('The rate-limit store', async () => {
        if (amount > limit) return undefined;
        try {
          const { Attributes } = await client.send(
            new UpdateCommand({
              TableName: tableName,
              Key: { pk: key },
              UpdateExpression: 'ADD hits :amount SET expiresAt = :expiresAt',
              ConditionExpression: 'attribute_not_exists(hits) OR hits <= :most',
              ExpressionAttributeValues: { ':amount': amount, ':most': limit - amount, ':expiresAt': expiresAt },
              ReturnValues: 'UPDATED_NEW',
            }),
          );
          return Number(Attributes?.hits);
        } catch (error) {
          if (error instanceof ConditionalCheckFailedException) return undefined;
          throw error;
        }
      }),
  };
}
