/** The capture fonts in the template: one layer, on the capture function only, with fontconfig pointed at it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { FONTS_MOUNT, fontLinksFor, fontsConf, FONT_SOURCES } from '#infra/assets/fonts.ts';
import { QUEUES } from '#shared/resources.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import { logicalId, removeCdkOutdirs, synthEasel } from '../support/cdk.ts';
import type { EaselStack } from '#infra/stack.ts';

interface CfnFunction {
  Properties: { Layers?: { Ref: string }[]; Environment?: { Variables?: Record<string, unknown> } };
}

let stack: EaselStack;
let template: Template;

beforeAll(() => {
  // Prepare + Act
  ({ stack, template } = synthEasel());
});

afterAll(removeCdkOutdirs);

describe('the capture fonts in the stack', () => {
  it("makes one layer, for Node.js 24 on either architecture, under the fonts' licence", () => {
    // Assess
    template.resourceCountIs('AWS::Lambda::LayerVersion', 1);
    template.hasResourceProperties('AWS::Lambda::LayerVersion', {
      CompatibleRuntimes: ['nodejs24.x'],
      CompatibleArchitectures: ['x86_64', 'arm64'],
      LicenseInfo: 'OFL-1.1',
    });
  });

  it('mounts it on the two functions that run Chromium, capture and the shot worker, and points their FONTCONFIG_PATH at its folder', () => {
    // Prepare
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnFunction>;
    const [layerId] = Object.keys(template.findResources('AWS::Lambda::LayerVersion'));
    const chromium = [logicalId(stack.routeFunctions.get('capturePage')!), logicalId(stack.workerFunctions.get('shots')!)].sort();

    // Assess
    const withLayer = Object.entries(functions)
      .filter(([, fn]) => fn.Properties.Layers?.some((layer) => layer.Ref === layerId))
      .map(([id]) => id);
    expect(withLayer.sort()).toEqual(chromium);
    for (const id of chromium) expect(functions[id]!.Properties.Environment?.Variables?.FONTCONFIG_PATH).toBe(FONTS_MOUNT);
    const others = Object.entries(functions).filter(([id]) => !chromium.includes(id));
    expect(others.filter(([, fn]) => fn.Properties.Environment?.Variables?.FONTCONFIG_PATH !== undefined)).toEqual([]);
    expect(ROUTE_LIST.filter((row) => row.fonts).map((row) => row.operationId)).toEqual(['capturePage']);
    expect(QUEUES.shots.worker.fonts).toBe(true);
  });
});

describe('fonts.conf', () => {
  it('reads the links folder of its place, caches under /tmp, and maps each CSS generic family to its Noto face', () => {
    // Act
    const conf = fontsConf({ dir: fontLinksFor(FONTS_MOUNT) });

    // Assess
    expect(conf).toContain(`<dir>${fontLinksFor(FONTS_MOUNT)}</dir>`);
    expect(fontLinksFor(FONTS_MOUNT)).toMatch(/^\/tmp\/easel-fonts\/[0-9a-f]{16}-[0-9a-f]{12}$/);
    expect(fontLinksFor(FONTS_MOUNT)).not.toBe(fontLinksFor('/var/task/fonts'));
    expect(conf).toMatch(/<cachedir>\/tmp\/[^<]+<\/cachedir>/);
    expect(conf.match(/<dir[ >]/g)).toHaveLength(1);
    expect(conf).not.toMatch(/<include/);
    for (const [generic, family] of [
      ['sans-serif', 'Noto Sans'],
      ['serif', 'Noto Serif'],
      ['monospace', 'Noto Sans Mono'],
      ['emoji', 'Noto Color Emoji'],
    ]) {
      expect(conf).toContain(`<alias><family>${generic}</family><prefer><family>${family}</family>`);
    }
    expect(new Set(FONT_SOURCES.map((source) => source.family)).size).toBe(FONT_SOURCES.length);
  });

  it('puts the colour emoji font first, strongly bound, where Chromium asks for emoji presentation (language und-zsye)', () => {
    // Act
    const conf = fontsConf({ dir: fontLinksFor(FONTS_MOUNT) });

    // Assess: without it, a text font holding the code point wins whenever fontconfig does not count the font as covering und-zsye.
    expect(conf).toContain(
      '<match target="pattern"><test name="lang" compare="contains"><string>und-zsye</string></test>' +
        '<edit name="family" mode="prepend" binding="strong"><string>Noto Color Emoji</string></edit></match>',
    );
    expect(FONT_SOURCES.filter((source) => source.generic === 'emoji').map((source) => source.files.length)).toEqual([1]);
  });
});
