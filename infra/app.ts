import { App } from 'aws-cdk-lib';
import { easelPropsFromContext } from '#infra/context.ts';
import { EaselStack } from '#infra/stack.ts';

const app = new App();
new EaselStack(app, 'Easel', {
  description: 'Easel: screenshot editor backend (HTTP API, Lambda, DynamoDB, S3, SQS)',
  // Environment-agnostic unless the CLI knows the account and region (it sets these from the profile).
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...easelPropsFromContext(app),
});
