/**
 * Secrets Manager's GetSecretValue over its JSON protocol (aws/json-protocol.ts), in place of
 * `@aws-sdk/client-secrets-manager` (≈180 KB with the SDK core it brings, and its first-call
 * set-up, in every function that reads the maintainers' secret: wiring/internal-auth.ts). Same
 * shape as the SDK's — `client.send(new GetSecretValueCommand({ SecretId }))`, the output's dates
 * and binary values converted as the SDK converts them, errors named and shaped alike — so
 * aws-sdk-client-mock stubs it as it did the SDK's. test/unit/aws-secrets-manager.test.ts holds
 * it to the SDK.
 */
import { JsonServiceClient } from '#shared/aws/json-protocol.ts';
import { AwsCommand, type AwsClientSettings, type ResponseMetadata } from '#shared/aws/transport.ts';

export interface GetSecretValueCommandInput {
  /** The secret's ARN or name. */
  SecretId: string;
  VersionId?: string;
  VersionStage?: string;
}

export interface GetSecretValueCommandOutput {
  ARN?: string;
  Name?: string;
  VersionId?: string;
  SecretString?: string;
  SecretBinary?: Uint8Array;
  VersionStages?: string[];
  CreatedDate?: Date;
  $metadata: ResponseMetadata;
}

export class GetSecretValueCommand extends AwsCommand<GetSecretValueCommandInput, GetSecretValueCommandOutput> {
  readonly operation = 'GetSecretValue';
}

export class SecretsManagerClient {
  private readonly service: JsonServiceClient;
  constructor(settings: AwsClientSettings) {
    this.service = new JsonServiceClient({ ...settings, service: 'secretsmanager', targetPrefix: 'secretsmanager', contentType: 'application/x-amz-json-1.1' });
  }

  /** Closes the idle connections. */
  destroy(): void {
    this.service.destroy();
  }

  async send(command: GetSecretValueCommand): Promise<GetSecretValueCommandOutput> {
    const { output, $metadata } = await this.service.call(command.operation, command.input);
    // On the wire a date is epoch seconds and a binary value base64; the SDK hands out a Date and bytes.
    const { CreatedDate, SecretBinary, ...fields } = output as Omit<GetSecretValueCommandOutput, 'CreatedDate' | 'SecretBinary' | '$metadata'> & { CreatedDate?: number; SecretBinary?: string };
    return {
      ...fields,
      ...(CreatedDate === undefined ? {} : { CreatedDate: new Date(CreatedDate * 1000) }),
      ...(SecretBinary === undefined ? {} : { SecretBinary: new Uint8Array(Buffer.from(SecretBinary, 'base64')) }),
      $metadata,
    };
  }
}
