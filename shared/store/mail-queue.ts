/** The sign-in mail queue: what the API hands to the mail worker (an address, never a code). */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { UpstreamUnavailableError } from '#shared/errors.ts';

export interface SignInMailRequest {
  email: string;
  /** ISO time of the request; the worker drops a message that waited longer than a code lives. */
  requestedAt: string;
}

export class SignInMailQueue {
  private readonly sqs: SQSClient;
  private readonly queueUrl: string;

  constructor(deps: { sqs: SQSClient; queueUrl: string }) {
    this.sqs = deps.sqs;
    this.queueUrl = deps.queueUrl;
  }

  async enqueue(message: SignInMailRequest): Promise<void> {
    try {
      await this.sqs.send(
        new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify({ email: message.email, requestedAt: message.requestedAt }) }),
      );
    } catch (error) {
      throw new UpstreamUnavailableError('The sign-in mail queue is unavailable; ask for a code again shortly.', error);
    }
  }
}
