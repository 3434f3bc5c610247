/**
 * Settings for an SDK client in a test: the local backends' credentials and the limits the
 * functions run with (SDK_LIMITS in shared/config.ts), pointed at `endpoint`, with the test's changes.
 */
import type { AwsClientSettings } from '#shared/aws/settings.ts';
import { SDK_LIMITS } from '#shared/config.ts';

export const LOCAL_CREDENTIALS = { accessKeyId: 'easel-local', secretAccessKey: 'easel-local' };

export function localSettings(settings: Partial<AwsClientSettings> & { endpoint: string }): AwsClientSettings {
  return { region: 'us-east-1', credentials: LOCAL_CREDENTIALS, ...SDK_LIMITS, ...settings };
}
