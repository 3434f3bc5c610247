/**
 * A client of an AWS service that speaks the JSON protocol (POST /, `X-Amz-Target`, a JSON body
 * each way) over aws/transport.ts: what DynamoDB and SQS need, in a few KB
 * rather than the SDK's ≈250 KB, whose compilation and first-call set-up cost every cold start
 * ≈80 ms (README, Performance).
 */
import { sha256Hex, sign } from '#shared/aws/sigv4.ts';
import { AwsTransport, header, serviceError, type AwsClientSettings, type AwsServiceError, type ErrorClasses, type RawResponse, type ResponseMetadata } from '#shared/aws/transport.ts';

export interface JsonServiceSettings extends AwsClientSettings {
  /** The signing name, e.g. `dynamodb`. */
  service: string;
  /** `X-Amz-Target` prefix, e.g. `DynamoDB_20120810`. */
  targetPrefix: string;
  /** e.g. `application/x-amz-json-1.0`. */
  contentType: string;
  /** Classes for the error names the callers tell apart with `instanceof`. */
  errors?: ErrorClasses;
}

export class JsonServiceClient {
  private readonly url: URL;
  private readonly settings: JsonServiceSettings;
  private readonly transport: AwsTransport;
  constructor(settings: JsonServiceSettings) {
    this.settings = settings;
    const suffix = settings.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    this.url = new URL(settings.endpoint ?? `https://${settings.service}.${settings.region}.${suffix}`);
    this.transport = new AwsTransport(settings, settings.service);
  }

  /** Closes the idle connections (a command-line run that is done). */
  destroy(): void {
    this.transport.destroy();
  }

  /** Calls `operation` with `input` (already in the service's wire shape); its parsed answer. */
  call(operation: string, input: unknown): Promise<{ output: Record<string, unknown>; $metadata: ResponseMetadata }> {
    const { settings, url } = this;
    const body = JSON.stringify(input);
    // The headers the SDK's clients send and sign, less their telemetry (test/unit/aws-secrets-manager.test.ts).
    const payloadHash = sha256Hex(body);
    const toSign = {
      'content-length': String(Buffer.byteLength(body)),
      'content-type': settings.contentType,
      'x-amz-content-sha256': payloadHash,
      'x-amz-target': `${settings.targetPrefix}.${operation}`,
    };
    return this.transport.call(
      async () => {
        const headers = sign({ method: 'POST', host: url.host, path: '/', headers: toSign, body, payloadHash }, await settings.credentials(), {
          region: settings.region,
          service: settings.service,
        });
        return { origin: url, method: 'POST', path: '/', headers, body };
      },
      (response, $metadata) => {
        if (response.status < 200 || response.status >= 300) throw this.serviceError(response, $metadata);
        const text = response.body.toString('utf8');
        return { output: text ? (JSON.parse(text) as Record<string, unknown>) : {}, $metadata };
      },
    );
  }

  /** The error a non-2xx answer stands for: `__type` (or `x-amzn-errortype`) names it. */
  private serviceError(response: RawResponse, $metadata: ResponseMetadata): AwsServiceError {
    let parsed: { __type?: unknown; message?: unknown; Message?: unknown } = {};
    try {
      parsed = JSON.parse(response.body.toString('utf8')) as typeof parsed;
    } catch {
      // Not JSON (a proxy's page): the status alone tells what happened.
    }
    const type = typeof parsed.__type === 'string' ? parsed.__type : header(response.headers, 'x-amzn-errortype');
    const name = type ? type.split('#').pop()!.split(':')[0]! : response.status >= 500 ? 'InternalServerError' : 'UnknownError';
    const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.Message === 'string' ? parsed.Message : `${this.settings.service} answered ${response.status}`;
    return serviceError({ name, message, status: response.status, $metadata }, this.settings.errors);
  }
}
