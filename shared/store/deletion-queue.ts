/** The asset-deletion queue: what the API hands to the deletion worker. */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { UpstreamUnavailableError } from '#shared/errors.ts';

export class DeletionQueue {
  private readonly sqs: SQSClient;
  private readonly queueUrl: string;

  constructor(deps: { sqs: SQSClient; queueUrl: string }) {
    this.sqs = deps.sqs;
    this.queueUrl = deps.queueUrl;
  }

  /** Any failure is 503: whatever the reason, nothing would finish the deletion. */
  async enqueue(message: { workspaceId: string; assetId: string }): Promise<void> {
    try {
      await this.sqs.send(
        new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify({ workspaceId: message.workspaceId, assetId: message.assetId }) }),
      );
    } catch (error) {
      throw new UpstreamUnavailableError('The deletion queue is unavailable; retry shortly.', error);
    }
  }
}
