/** What the bundler leaves out depends on what the code it bundles names (entryNeeds() in easel-function.ts). */
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '#infra/constructs/easel-function.ts';

const STUB = /no-event-streams\.ts$/;

describe('bundleOptions', () => {
  it("keeps the SDK's event streams for code that names an operation streaming them", () => {
    // Act
    const options = bundleOptions('test/fixtures/event-streams/entry.ts');

    // Assess
    expect(options.alias?.['@smithy/core/event-streams']).toBeUndefined();
  });

  it('leaves them out for code that sends only S3 operations without event streams', () => {
    // Act
    const options = bundleOptions('functions/assets/create-upload-url.ts');

    // Assess
    expect(options.alias?.['@smithy/core/event-streams']).toMatch(STUB);
  });
});
