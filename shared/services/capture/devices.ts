/** The contract's device profiles: the viewport (CSS pixels) is fixed; the scale factor sets the PNG size. */
import { MAX_CAPTURE_PIXELS } from '#shared/schemas/screenshot.ts';

export type DeviceType = 'desktop' | 'mobile';
export type ColorScheme = 'light' | 'dark';

export interface DeviceProfile {
  width: number;
  height: number;
  /** mobile 2, that phone class's real density: 1 is too blurry to annotate, 3 outweighs a desktop capture. */
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

export const DEVICES: Record<DeviceType, DeviceProfile> = {
  desktop: { width: 1920, height: 1080, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
  mobile: { width: 375, height: 667, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

export function imageSize(device: DeviceType): { width: number; height: number } {
  const profile = DEVICES[device];
  return { width: profile.width * profile.deviceScaleFactor, height: profile.height * profile.deviceScaleFactor };
}

export interface UserAgentProfile {
  userAgent: string;
  platform: string;
  userAgentMetadata: {
    brands: { brand: string; version: string }[];
    fullVersion?: string;
    platform: string;
    platformVersion: string;
    architecture: string;
    model: string;
    mobile: boolean;
  };
}

/** Chrome's reduced UA and client hints, real major version: many sites challenge "HeadlessChrome". Mobile is Chrome-on-Android. */
export function userAgentFor(device: DeviceType, browserVersion: string): UserAgentProfile {
  const major = /\/(\d+)\./.exec(browserVersion)?.[1] ?? '153';
  const brands = [
    { brand: 'Chromium', version: major },
    { brand: 'Google Chrome', version: major },
    { brand: 'Not.A/Brand', version: '99' },
  ];
  if (device === 'mobile') {
    return {
      userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
      platform: 'Linux armv8l',
      userAgentMetadata: { brands, platform: 'Android', platformVersion: '10.0.0', architecture: '', model: 'K', mobile: true },
    };
  }
  return {
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`,
    platform: 'Linux x86_64',
    userAgentMetadata: { brands, platform: 'Linux', platformVersion: '', architecture: 'x86', model: '', mobile: false },
  };
}

/** Image px one screenshot paints right per side, the software GPU's largest texture; past it the top repeats (docs/capture.md, "Size"). */
export const SCREEN_PX = 8_192;

/** A viewport at `scale` in image pixels, and whether one screenshot of the screen holds it (else a capture and a shot refuse it). */
export function viewportPixels(viewport: { width: number; height: number }, scale: number): { width: number; height: number; fits: boolean } {
  const width = viewport.width * scale;
  const height = viewport.height * scale;
  return { width, height, fits: width <= SCREEN_PX && height <= SCREEN_PX && width * height <= MAX_CAPTURE_PIXELS };
}
