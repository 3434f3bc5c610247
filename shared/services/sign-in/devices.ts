/** A session's device as people name it ("Chrome 153 on macOS"), read from its User-Agent with bowser. */
import Bowser from 'bowser';

export function deviceOf(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const name = browser.name ? `${browser.name}${major ? ` ${major}` : ''}` : undefined;
  if (name && os.name) return `${name} on ${os.name}`;
  return name ?? os.name ?? 'Unknown device';
}
