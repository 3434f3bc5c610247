/**
 * The DynamoDB document client of Easel: the eight operations the stores use, with items as plain
 * JavaScript values, over aws/json-protocol.ts. It stands where `@aws-sdk/lib-dynamodb` stood and
 * keeps its shape — `client.send(new GetCommand(input))`, the same input and output types, the
 * same conversion of values (with `removeUndefinedValues`) and errors named and shaped as the
 * SDK's — so the stores read the same and the tests stub it the same way (aws-sdk-client-mock
 * stubs any class's `send`). test/integration/dynamodb-client.test.ts holds it to the SDK's
 * behaviour against the embedded DynamoDB.
 *
 * Only expressions are supported (KeyConditionExpression, ConditionExpression, ...): the legacy
 * parameters (KeyConditions, Expected, AttributeUpdates, QueryFilter, ScanFilter) are refused.
 */
import type * as Doc from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { JsonServiceClient } from '#shared/aws/json-protocol.ts';
import { AwsCommand, AwsServiceError, type AwsClientSettings, type ResponseMetadata, type ServiceErrorInit } from '#shared/aws/transport.ts';

export { AwsServiceError as DynamoDBServiceException } from '#shared/aws/transport.ts';

/** The condition of a conditional write or update did not hold. */
export class ConditionalCheckFailedException extends AwsServiceError {
  constructor(init: ServiceErrorInit) {
    super({ ...init, name: 'ConditionalCheckFailedException' });
  }
}

type Item = Record<string, unknown>;
type WireMap = Record<string, AttributeValue>;
type Wire = Record<string, unknown>;

type Operation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'Scan' | 'BatchGetItem' | 'BatchWriteItem';

export class GetCommand extends AwsCommand<Doc.GetCommandInput, Doc.GetCommandOutput> {
  readonly operation = 'GetItem';
}
export class PutCommand extends AwsCommand<Doc.PutCommandInput, Doc.PutCommandOutput> {
  readonly operation = 'PutItem';
}
export class UpdateCommand extends AwsCommand<Doc.UpdateCommandInput, Doc.UpdateCommandOutput> {
  readonly operation = 'UpdateItem';
}
export class DeleteCommand extends AwsCommand<Doc.DeleteCommandInput, Doc.DeleteCommandOutput> {
  readonly operation = 'DeleteItem';
}
export class QueryCommand extends AwsCommand<Doc.QueryCommandInput, Doc.QueryCommandOutput> {
  readonly operation = 'Query';
}
export class ScanCommand extends AwsCommand<Doc.ScanCommandInput, Doc.ScanCommandOutput> {
  readonly operation = 'Scan';
}
export class BatchGetCommand extends AwsCommand<Doc.BatchGetCommandInput, Doc.BatchGetCommandOutput> {
  readonly operation = 'BatchGetItem';
}
export class BatchWriteCommand extends AwsCommand<Doc.BatchWriteCommandInput, Doc.BatchWriteCommandOutput> {
  readonly operation = 'BatchWriteItem';
}

export type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

export type DynamoCommand = GetCommand | PutCommand | UpdateCommand | DeleteCommand | QueryCommand | ScanCommand | BatchGetCommand | BatchWriteCommand;

// ---- Values: JavaScript ⇄ DynamoDB, as lib-dynamodb converts them -------------------------------

/** A JavaScript value as an AttributeValue; undefined for `undefined` (which is then left out). */
export function toAttribute(value: unknown): AttributeValue | undefined {
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'string':
      return { S: value };
    case 'boolean':
      return { BOOL: value };
    case 'number':
      return { N: numberText(value) };
    case 'bigint':
      return { N: value.toString() };
    case 'object': {
      if (value === null) return { NULL: true };
      if (Array.isArray(value)) return { L: value.flatMap((entry) => toAttribute(entry) ?? []) };
      if (value instanceof Set) return setAttribute(value);
      if (value instanceof Uint8Array) return { B: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } as unknown as AttributeValue;
      if (value instanceof ArrayBuffer) return { B: Buffer.from(value).toString('base64') } as unknown as AttributeValue;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        throw new Error(`Unsupported type passed: ${String(value)}. Pass a plain object, an array, a Set, a Uint8Array or a primitive.`);
      }
      return { M: toMap(value as Item) };
    }
    default:
      throw new Error(`Unsupported type passed: ${String(value)}`);
  }
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Special numeric value ${value} is not allowed`);
  if (value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) {
    throw new Error(`Number ${value} is outside the safe integer range: pass a BigInt to keep its precision.`);
  }
  return String(value);
}

function setAttribute(set: Set<unknown>): AttributeValue {
  const values = [...set];
  if (values.length === 0) throw new Error('Pass a non-empty set: DynamoDB has no empty sets.');
  if (values.every((entry) => typeof entry === 'string')) return { SS: values as string[] };
  if (values.every((entry) => typeof entry === 'number' || typeof entry === 'bigint')) {
    return { NS: values.map((entry) => (typeof entry === 'number' ? numberText(entry) : entry.toString())) };
  }
  if (values.every((entry) => entry instanceof Uint8Array)) {
    return { BS: values.map((entry) => Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength).toString('base64')) } as unknown as AttributeValue;
  }
  throw new Error('Only a Set of strings, of numbers or of binary values can be stored.');
}

/** An item (or key) as a map of AttributeValues; `undefined` attributes are left out. */
export function toMap(item: Item): WireMap {
  const out: WireMap = {};
  for (const [name, value] of Object.entries(item)) {
    const attribute = toAttribute(value);
    if (attribute !== undefined) out[name] = attribute;
  }
  return out;
}

function fromNumber(text: string): number | bigint {
  const value = Number(text);
  if ((value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) && Number.isFinite(value)) return BigInt(text);
  return value;
}

/** An AttributeValue as the JavaScript value lib-dynamodb returns for it. */
export function fromAttribute(attribute: AttributeValue): unknown {
  const wire = attribute as unknown as Record<string, unknown>;
  if ('S' in wire) return wire.S;
  if ('N' in wire) return fromNumber(wire.N as string);
  if ('BOOL' in wire) return wire.BOOL;
  if ('NULL' in wire) return null;
  if ('M' in wire) return fromMap(wire.M as WireMap);
  if ('L' in wire) return (wire.L as AttributeValue[]).map(fromAttribute);
  if ('SS' in wire) return new Set(wire.SS as string[]);
  if ('NS' in wire) return new Set((wire.NS as string[]).map(fromNumber));
  if ('B' in wire) return new Uint8Array(Buffer.from(wire.B as string, 'base64'));
  if ('BS' in wire) return new Set((wire.BS as string[]).map((entry) => new Uint8Array(Buffer.from(entry, 'base64'))));
  throw new Error(`Unknown attribute type: ${Object.keys(wire).join(', ')}`);
}

export function fromMap(map: WireMap): Item {
  const out: Item = {};
  for (const [name, attribute] of Object.entries(map)) out[name] = fromAttribute(attribute);
  return out;
}

// ---- Operations: which fields carry items, each way ---------------------------------------------

const LEGACY = ['KeyConditions', 'QueryFilter', 'ScanFilter', 'Expected', 'AttributeUpdates', 'AttributesToGet'];

const mapOrUndefined = (value: unknown): WireMap | undefined => (value === undefined ? undefined : toMap(value as Item));
const itemOrUndefined = (value: unknown): Item | undefined => (value === undefined ? undefined : fromMap(value as WireMap));
const mapValues = <T, U>(record: Record<string, T>, convert: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, convert(value)]));

type WriteRequest = { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } };
const writeToWire = (write: WriteRequest) =>
  write.PutRequest ? { PutRequest: { Item: toMap(write.PutRequest.Item) } } : { DeleteRequest: { Key: toMap(write.DeleteRequest!.Key) } };
const writeFromWire = (write: { PutRequest?: { Item: WireMap }; DeleteRequest?: { Key: WireMap } }) =>
  write.PutRequest ? { PutRequest: { Item: fromMap(write.PutRequest.Item) } } : { DeleteRequest: { Key: fromMap(write.DeleteRequest!.Key) } };

function request(operation: Operation, input: Wire): Wire {
  for (const name of LEGACY) if (input[name] !== undefined) throw new Error(`${operation}: ${name} is not supported; use expressions.`);
  const wire: Wire = { ...input };
  if (input.ExpressionAttributeValues !== undefined) wire.ExpressionAttributeValues = toMap(input.ExpressionAttributeValues as Item);
  switch (operation) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      wire.Key = toMap(input.Key as Item);
      break;
    case 'PutItem':
      wire.Item = toMap(input.Item as Item);
      break;
    case 'Query':
    case 'Scan':
      wire.ExclusiveStartKey = mapOrUndefined(input.ExclusiveStartKey);
      break;
    case 'BatchGetItem':
      wire.RequestItems = mapValues(input.RequestItems as Record<string, { Keys: Item[] }>, (table) => ({ ...table, Keys: table.Keys.map(toMap) }));
      break;
    case 'BatchWriteItem':
      wire.RequestItems = mapValues(input.RequestItems as Record<string, WriteRequest[]>, (writes) => writes.map(writeToWire));
      break;
  }
  return wire;
}

function response(operation: Operation, output: Wire): Wire {
  const out: Wire = { ...output };
  switch (operation) {
    case 'GetItem':
      out.Item = itemOrUndefined(output.Item);
      break;
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      out.Attributes = itemOrUndefined(output.Attributes);
      break;
    case 'Query':
    case 'Scan':
      if (output.Items !== undefined) out.Items = (output.Items as WireMap[]).map(fromMap);
      out.LastEvaluatedKey = itemOrUndefined(output.LastEvaluatedKey);
      break;
    case 'BatchGetItem':
      if (output.Responses !== undefined) out.Responses = mapValues(output.Responses as Record<string, WireMap[]>, (items) => items.map(fromMap));
      if (output.UnprocessedKeys !== undefined) {
        out.UnprocessedKeys = mapValues(output.UnprocessedKeys as Record<string, { Keys: WireMap[] }>, (table) => ({ ...table, Keys: table.Keys.map(fromMap) }));
      }
      break;
    case 'BatchWriteItem':
      if (output.UnprocessedItems !== undefined) {
        out.UnprocessedItems = mapValues(output.UnprocessedItems as Record<string, Parameters<typeof writeFromWire>[0][]>, (writes) => writes.map(writeFromWire));
      }
      break;
  }
  // What the service left out stays absent, as in the SDK's output.
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
}

// ---- The client ---------------------------------------------------------------------------------

export class DynamoClient {
  private readonly service: JsonServiceClient;
  constructor(settings: AwsClientSettings) {
    this.service = new JsonServiceClient({
      ...settings,
      service: 'dynamodb',
      targetPrefix: 'DynamoDB_20120810',
      contentType: 'application/x-amz-json-1.0',
      errors: { ConditionalCheckFailedException },
    });
  }

  /** Closes the idle connections. */
  destroy(): void {
    this.service.destroy();
  }

  /** Sends one command; resolves to its output (items as plain values) with `$metadata`. */
  async send<C extends DynamoCommand>(command: C): Promise<C['__output']> {
    const { output, $metadata } = await this.service.call(command.operation, request(command.operation, command.input as Wire));
    return { ...response(command.operation, output), $metadata } as C['__output'] & { $metadata: ResponseMetadata };
  }
}
