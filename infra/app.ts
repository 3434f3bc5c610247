import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { easelPropsFromContext, stackNameFromContext } from '#infra/context.ts';
import { EaselStack } from '#infra/stack.ts';

const app = new App();
// cdk-nag runs on every synth and deploy, so an unacknowledged finding stops them.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

new EaselStack(app, stackNameFromContext(app), {
  description: 'Easel: screenshot editor backend (HTTP API, Lambda, DynamoDB, S3, SQS)',
  // Environment-agnostic unless the CLI knows the account and region from the profile.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  ...easelPropsFromContext(app),
});
