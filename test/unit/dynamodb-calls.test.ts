import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { putOrGet } from '#shared/store/dynamodb-calls.ts';
import { mockDynamo, stubbedDynamo } from '../support/mock-dynamo.ts';

const KEY = { pk: 'WS#w1', sk: 'IDEMPOTENCY#op#k' };
const PUT = {
  table: 'workspace',
  key: KEY,
  item: { ...KEY, state: 'pending' },
  condition: 'attribute_not_exists(pk) OR expiresAt < :now',
  values: { ':now': 10 },
};

describe('putOrGet', () => {
  const dynamo = mockDynamo();
  afterEach(() => dynamo.reset());

  it('takes the item that failed the condition from DynamoDB’s answer, reading nothing more', async () => {
    const Item = { pk: { S: 'WS#w1' }, sk: { S: 'IDEMPOTENCY#op#k' }, state: { S: 'done' }, status: { N: '201' } };
    dynamo.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item }));

    const put = await putOrGet('The store', stubbedDynamo(), PUT);

    expect(put).toEqual({ created: false, existing: { ...KEY, state: 'done', status: 201 } });
    expect(dynamo.commandCalls(PutCommand)[0]!.args[0].input).toMatchObject({ ReturnValuesOnConditionCheckFailure: 'ALL_OLD' });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads the item with a consistent read when the answer carries none, as a stand-in’s may not', async () => {
    dynamo.on(PutCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    dynamo.on(GetCommand).resolves({ Item: { ...KEY, state: 'pending' } });

    const put = await putOrGet('The store', stubbedDynamo(), PUT);

    expect(put).toEqual({ created: false, existing: { ...KEY, state: 'pending' } });
    expect(dynamo.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([{ TableName: 'workspace', Key: KEY, ConsistentRead: true }]);
  });

  it('returns the expired item a write replaced', async () => {
    dynamo.on(PutCommand).resolves({ Attributes: { ...KEY, state: 'pending', owner: 'r-1' } });

    expect(await putOrGet('The store', stubbedDynamo(), PUT)).toEqual({ created: true, replaced: { ...KEY, state: 'pending', owner: 'r-1' } });
  });
});
