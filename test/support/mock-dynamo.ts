/**
 * aws-sdk-client-mock on Easel's own clients (shared/aws/dynamodb.ts, s3.ts, sqs.ts): the library
 * stubs the `send` of any class and matches commands with `instanceof` and their `input`, so it
 * works as on the SDK's clients; only its types expect an SDK client, hence the typed view below.
 */
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoClient, type DynamoCommand } from '#shared/aws/dynamodb.ts';
import { NoSuchKey, NotFound, S3Client, type S3Command } from '#shared/aws/s3.ts';
import { AwsServiceError, serviceError, type AwsClientSettings } from '#shared/aws/transport.ts';
import { SendMessageCommand, SqsClient } from '#shared/aws/sqs.ts';

/** A command of Easel's own clients (aws/dynamodb.ts, aws/s3.ts, aws/sqs.ts). */
type AnyCommand = { input: object; __output: unknown };
type CommandClass<C extends AnyCommand> = new (input: C['input']) => C;
type Output<C extends AnyCommand> = Partial<C['__output']>;

export interface DynamoBehavior<C extends AnyCommand> {
  resolves(output: Output<C>): DynamoBehavior<C>;
  resolvesOnce(output: Output<C>): DynamoBehavior<C>;
  rejects(error?: unknown): DynamoBehavior<C>;
  rejectsOnce(error?: unknown): DynamoBehavior<C>;
  callsFake(fake: (input: never) => unknown): DynamoBehavior<C>;
  callsFakeOnce(fake: (input: never) => unknown): DynamoBehavior<C>;
}

export interface DynamoStub<Base extends AnyCommand = DynamoCommand> {
  on<C extends Base>(command: CommandClass<C>, input?: Partial<C['input']>, strict?: boolean): DynamoBehavior<C>;
  calls(): { args: [Base] }[];
  commandCalls<C extends Base>(command: CommandClass<C>, input?: Partial<C['input']>, strict?: boolean): { args: [C] }[];
  reset(): DynamoStub<Base>;
  restore(): void;
}

/** Stubs `send` of every DynamoClient (restore() puts it back). */
export function mockDynamo(): DynamoStub {
  return mockClient(DynamoClient as never) as unknown as DynamoStub;
}

/** Stubs `send` of every S3Client (restore() puts it back). */
export function mockS3(): DynamoStub<S3Command> {
  return mockClient(S3Client as never) as unknown as DynamoStub<S3Command>;
}

/** Stubs `send` of every SqsClient (restore() puts it back). */
export function mockSqs(): DynamoStub<SendMessageCommand> {
  return mockClient(SqsClient as never) as unknown as DynamoStub<SendMessageCommand>;
}

/** Settings of a client for the stubs to intercept: nothing listens there, no attempt is repeated. */
const STUBBED: AwsClientSettings = {
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  credentials: async () => ({ accessKeyId: 'test', secretAccessKey: 'test' }),
  maxAttempts: 1,
  connectionTimeoutMs: 100,
  requestTimeoutMs: 100,
  socketTimeoutMs: 100,
};

/** A DynamoDB client for mockDynamo() to intercept. */
export const stubbedDynamo = (): DynamoClient => new DynamoClient(STUBBED);

/** An SQS client for mockSqs() to intercept. */
export const stubbedSqs = (): SqsClient => new SqsClient(STUBBED);

/** An S3 client for mockS3() to intercept. */
export const stubbedS3 = (): S3Client => new S3Client(STUBBED);

/** An error as aws/s3.ts throws it for S3's answer (see its s3Error). */
export function s3Error(name: string, httpStatusCode: number, message = name): AwsServiceError {
  return serviceError({ name, message, status: httpStatusCode, $metadata: { httpStatusCode } }, { NoSuchKey, NotFound });
}

/** An error as the client throws it for a service's answer (see JsonServiceClient.serviceError). */
export function dynamoError(name: string, httpStatusCode: number, message = name): AwsServiceError {
  const throttling = /Throttl|ThroughputExceeded|LimitExceeded/.test(name) || httpStatusCode === 429;
  return new AwsServiceError({
    name,
    message,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode, attempts: 3 },
    ...(throttling ? { $retryable: { throttling: true } } : {}),
  });
}
