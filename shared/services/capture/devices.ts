/**
 * The two device profiles of the contract. The viewport is what the contract fixes (CSS pixels);
 * the device scale factor decides the PNG's pixel size.
 */
export type DeviceType = 'desktop' | 'mobile';
export type ColorScheme = 'light' | 'dark';

export interface DeviceProfile {
  width: number;
  height: number;
  /**
   * desktop 1: a 1920×1080 PNG, pixel for pixel what a desktop browser shows.
   * mobile 2: the 375×667 viewport of an iPhone SE/8-sized phone at that class of phone's real
   * density, a 750×1334 PNG — at 1 a phone capture is too blurry to annotate in the editor, and
   * at 3 it would weigh more than the desktop capture for little gain.
   */
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

/** The viewport and emulation of each device type of the contract. */
export const DEVICES: Record<DeviceType, DeviceProfile> = {
  desktop: { width: 1920, height: 1080, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
  mobile: { width: 375, height: 667, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

/** The PNG size a device produces, in pixels. */
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

/**
 * The user agent a capture presents: Chrome's own reduced user-agent string for the device class,
 * with the browser's real major version, and matching client hints. Headless Chromium calls itself
 * "HeadlessChrome", which many sites answer with a bot challenge instead of the page; mobile gets
 * Chrome-on-Android (the engine that actually renders) so sites serve their phone layout.
 *
 * @param browserVersion e.g. "HeadlessChrome/153.0.8010.36" from Browser.version()
 */
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
