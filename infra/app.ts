import { App } from 'aws-cdk-lib';
import { EaselStack } from '#infra/stack.ts';

/** `-c editorOrigins=https://a.example,https://b.example` on the command line, or a list in cdk.json. */
function listContext(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value.map(String);
  return String(value).split(',').filter((item) => item.trim() !== '');
}

const app = new App();
const publicBaseUrl: unknown = app.node.tryGetContext('publicBaseUrl');
const internalSecretArn: unknown = app.node.tryGetContext('internalSecretArn');
const editorApiUrl: unknown = app.node.tryGetContext('editorApiUrl');

new EaselStack(app, 'Easel', {
  description: 'Easel: screenshot editor backend (HTTP API, Lambda, DynamoDB, S3, SQS)',
  // Environment-agnostic unless the CLI knows the account and region (it sets these from the profile).
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  publicBaseUrl: typeof publicBaseUrl === 'string' && publicBaseUrl !== '' ? publicBaseUrl : undefined,
  editorOrigins: listContext(app.node.tryGetContext('editorOrigins')),
  editorApiUrl: typeof editorApiUrl === 'string' && editorApiUrl !== '' ? editorApiUrl : undefined,
  internalSecretArn: typeof internalSecretArn === 'string' && internalSecretArn !== '' ? internalSecretArn : undefined,
});
