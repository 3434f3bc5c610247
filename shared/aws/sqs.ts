/**
 * The SQS client of the API's functions: SendMessage over SQS's JSON protocol
 * (aws/json-protocol.ts), in place of `@aws-sdk/client-sqs` (≈100 KB and ≈40 ms of a cold start).
 * Same shape as the SDK's — `client.send(new SendMessageCommand(input))`, errors named and shaped
 * alike — so aws-sdk-client-mock stubs it as it did the SDK's. The deletion worker reads its queue
 * through Lambda's event source, so nothing here receives.
 */
import type { SendMessageCommandInput, SendMessageCommandOutput } from '@aws-sdk/client-sqs';
import { JsonServiceClient } from '#shared/aws/json-protocol.ts';
import { AwsCommand, type AwsClientSettings } from '#shared/aws/transport.ts';

export type { SendMessageCommandInput, SendMessageCommandOutput } from '@aws-sdk/client-sqs';

export class SendMessageCommand extends AwsCommand<SendMessageCommandInput, SendMessageCommandOutput> {
  readonly operation = 'SendMessage';
}

export class SqsClient {
  private readonly service: JsonServiceClient;
  constructor(settings: AwsClientSettings) {
    this.service = new JsonServiceClient({ ...settings, service: 'sqs', targetPrefix: 'AmazonSQS', contentType: 'application/x-amz-json-1.0' });
  }

  /** Closes the idle connections. */
  destroy(): void {
    this.service.destroy();
  }

  async send(command: SendMessageCommand): Promise<SendMessageCommandOutput> {
    const { output, $metadata } = await this.service.call(command.operation, command.input);
    return { ...(output as Omit<SendMessageCommandOutput, '$metadata'>), $metadata };
  }
}
